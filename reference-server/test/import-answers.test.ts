/**
 * What a subscriber carries besides the address, moved through an import and an export
 * (docs/moving-a-list.md) on whichever store the run uses: answers to fields, the source and its
 * channel, and address variants on a waitlist with `dedupe=provider`
 * (docs/subscribers.md#address-variants). And an import whose waitlist is saved while the file
 * is read writes nothing.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ListPageSchema, type Subscriber, SubscriberStatus } from '@waitlistkit/protocol';
import { type Tenant, tempDir } from '@waitlistkit/testkit';
import { beforeAll, describe, expect, it } from 'vitest';
import { systemClock as clock } from '../src/adapters/clock.js';
import { acting } from '../src/app/guard.js';
import { importList } from '../src/app/import.js';
import { must } from '../src/app/refusal.js';
import { openStore, operatorServices } from '../src/container.js';
import { sql } from './database.js';
import { apiCreate, apiList, type Harness, ORIGIN, publicPost } from './helpers.js';
import { importHarness } from './import-harness.js';

const FIELDS = [
  { key: 'company', label: 'Company', type: 'text', required: true },
  { key: 'role', label: 'Role', type: 'select', options: ['Engineer', 'Founder'] },
  { key: 'consent', label: 'I agree', type: 'checkbox' },
];

const { h: server, dir, file, importFile } = importHarness();
let h: Harness;
beforeAll(() => {
  h = server();
});

async function withFields(t: Tenant): Promise<Tenant> {
  const path = join(dir, 'fields.json');
  writeFileSync(path, JSON.stringify(FIELDS));
  await h.cli(['waitlist', 'update', '--waitlist', t.waitlistId, '--fields', path]);
  return t;
}

async function line(t: Tenant): Promise<Subscriber[]> {
  const res = await apiList(h.server, t.key, t.waitlistId, '?limit=200');
  return ListPageSchema.parse(await res.json()).items;
}

describe('an export imported into an empty waitlist with the same fields', () => {
  it('gives the same line with the same answers, sources and channels', async () => {
    const t = await withFields(await h.tenant({ waitlist: ['--referrals', 'on', '--origins', ORIGIN] }));
    const created = await apiCreate(h.server, t.key, t.waitlistId, {
      email: 'ada@example.com',
      fields: { company: 'Analytical, "Engines"\nLtd', role: 'Founder', consent: true },
      source: {
        utm_source: 'newsletter',
        utm_campaign: 'launch',
        referrer: 'https://news.example/item?id=1',
        landing: 'https://shop.example/launch?secret=x',
      },
    });
    expect(created.status).toBe(202);
    const ada = (await line(t))[0] as Subscriber;
    const code = (
      await sql<{ referral_code: string }>(h.db, 'SELECT referral_code FROM subscribers WHERE id = ?', [
        ada.id,
      ])
    )[0]?.referral_code;
    expect(
      (
        await publicPost(h.server, t.waitlistId, {
          email: 'bo@example.com',
          referral_code: code,
          fields: { company: '=SUM(A1)' },
          source: { utm_source: 'twitter' },
        })
      ).status,
    ).toBe(202);
    expect(
      (
        await apiCreate(h.server, t.key, t.waitlistId, {
          email: 'cy@example.com',
          fields: { company: 'Cy', consent: false },
          source: { referrer: 'https://search.example/q' },
        })
      ).status,
    ).toBe(202);
    expect(
      (await apiCreate(h.server, t.key, t.waitlistId, { email: 'di@example.com', fields: { company: 'D' } }))
        .status,
    ).toBe(202);
    const original = await line(t);
    expect(original.map((s) => s.channel)).toEqual(['newsletter', 'referral', 'search.example', 'direct']);

    const to = join(dir, 'with-answers.csv');
    await h.cli(['subscriber', 'export', '--waitlist', t.waitlistId, '--to', to]);
    const [header, first] = readFileSync(to, 'utf8').split('\r\n');
    expect(header).toBe(
      'email,joined_at,referred_by,confirmed,lang,utm_source,utm_medium,utm_campaign,utm_term,utm_content,referrer,landing,fields.company,fields.role,fields.consent,channel,id,position,status,referral_code,referral_count,admitted_at',
    );
    expect(first).toContain(',newsletter,,launch,,,https://news.example/item,https://shop.example/launch,');
    expect(readFileSync(to, 'utf8')).toContain(`"'=SUM(A1)"`);

    const empty = await withFields(await h.tenant({ waitlist: ['--referrals', 'on'] }));
    expect(await importFile(empty, to)).toMatchObject({ imported: 4, credited: 1 });
    const copy = await line(empty);
    const shape = (s: Subscriber) => [
      s.email,
      s.joined_at,
      s.position,
      s.referral_count,
      s.fields,
      s.source,
      s.channel,
    ];
    expect(copy.map(shape)).toEqual(original.map(shape));
    // The list's filter finds the imported rows by the channel they came with.
    const filtered = await apiList(h.server, empty.key, empty.waitlistId, '?channel=newsletter');
    expect(ListPageSchema.parse(await filtered.json()).items.map((s) => s.email)).toEqual([
      'ada@example.com',
    ]);
  });

  it('refuses a row whose answers break a field’s rule, naming the line and the key', async () => {
    const t = await withFields(await h.tenant());
    const refusal = await importFile(
      t,
      file(
        'email,fields.company,role\nok@example.com,Acme,Engineer\nno@example.com,,Engineer\nbad@example.com,B,Pilot\n',
      ),
    );
    expect(refusal.imported).toBe(0);
    expect((refusal as unknown as { invalid: { line: number; reason: string }[] }).invalid).toEqual([
      { line: 3, reason: expect.stringMatching(/company/) },
      { line: 4, reason: expect.stringMatching(/role/) },
    ]);
    expect(await line(t)).toEqual([]);
  });
});

describe('an import on a waitlist with dedupe=provider', () => {
  it('takes a variant as the address it is a variant of: on the list, earlier in the file, and as a referrer', async () => {
    const t = await h.tenant({
      waitlist: ['--dedupe', 'provider', '--referrals', 'on', '--origins', ORIGIN],
    });
    expect((await apiCreate(h.server, t.key, t.waitlistId, { email: 'john@gmail.com' })).status).toBe(202);
    const summary = await importFile(
      t,
      file(
        [
          'email,referred_by',
          'J.O.H.N+x@gmail.com,',
          'jane.doe@gmail.com,j.ohn+ref@googlemail.com',
          'janedoe+2@googlemail.com,',
          'jane.doe@example.com,janedoe@gmail.com',
        ].join('\n'),
      ),
    );
    expect(summary).toMatchObject({ imported: 2, skipped_existing: 1, skipped_repeats: 1, credited: 2 });
    const after = await line(t);
    expect(after.map((s) => [s.email, s.referral_count])).toEqual([
      ['john@gmail.com', 1],
      ['jane.doe@gmail.com', 1],
      ['jane.doe@example.com', 0],
    ]);
    // The imported row holds its variant key: a later sign-up of a variant is a re-sign-up of it.
    const jane = after[1] as Subscriber;
    const again = await publicPost(h.server, t.waitlistId, { email: 'Jane.Doe+later@gmail.com' });
    expect(again.status).toBe(202);
    expect((await line(t)).length).toBe(3);
    const [stored] = await sql<{ variant_key: string }>(
      h.db,
      'SELECT variant_key FROM subscribers WHERE id = ?',
      [jane.id],
    );
    expect(stored?.variant_key).toBe('janedoe@gmail.com');
  });

  it('compares addresses exactly on a waitlist with dedupe=exact', async () => {
    const t = await h.tenant();
    expect((await apiCreate(h.server, t.key, t.waitlistId, { email: 'john@gmail.com' })).status).toBe(202);
    const summary = await importFile(t, file('email\nJ.O.H.N+x@gmail.com\nj.ohn@gmail.com\n'));
    expect(summary).toMatchObject({ imported: 2, skipped_existing: 0, skipped_repeats: 0 });
  });
});

describe('a waitlist saved while the file is read', () => {
  it('writes nothing, and says to import again', async () => {
    const own = tempDir();
    const store = await openStore(own.db, { clock });
    try {
      const ops = operatorServices(store, clock);
      const tenant = must(await ops.tenants.create('T', 'pro'));
      const scope = { tenantId: tenant.id };
      const { operator } = must(
        await ops.tenants.createOperator(scope, {
          email: 'admin@example.com',
          role: 'admin',
          password: 'correct horse battery',
        }),
      );
      const waitlist = must(await ops.waitlists.create(scope, 'W', {}));
      // The file's second half is read only once the waitlist was saved.
      async function* csv() {
        yield 'email\nfirst@example.com\n';
        must(await ops.waitlists.update(scope, waitlist.id, { patch: { referral_boost: 2 } }));
        yield 'second@example.com\n';
      }
      const request = { waitlistId: waitlist.id, dryRun: false, skipInvalid: false, sendEvents: false };
      const result = await importList({ store, clock }, acting(operator), { ...request, file: csv() });
      expect(result).toEqual({
        ok: false,
        refusal: { code: 'conflict', message: expect.stringMatching(/saved while the file was read/) },
      });
      const page = { page: 1, limit: 10, q: '', status: SubscriberStatus.waiting };
      expect(
        await store.read((tx) => tx.subscribers.list(waitlist.id, waitlist.settings, page)),
      ).toMatchObject({
        total: 0,
      });
      // Read again from the start, the same file goes in.
      async function* again() {
        yield 'email\nfirst@example.com\nsecond@example.com\n';
      }
      expect(
        await importList({ store, clock }, acting(operator), { ...request, file: again() }),
      ).toMatchObject({
        ok: true,
        value: { imported: 2 },
      });
    } finally {
      await store.close();
      own.cleanup();
    }
  });
});
