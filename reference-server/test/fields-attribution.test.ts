/**
 * Fields and attribution (docs/subscribers.md#fields, docs/subscribers.md#attribution) over HTTP,
 * on whichever store the run uses: the settings through the command line, both create endpoints,
 * the subscriber objects, the list's channel filter and the public form.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ListPageSchema, type Subscriber, SubscriberSchema } from '@waitlistkit/protocol';
import { tempDir } from '@waitlistkit/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inProcess } from './cli-in-process.js';
import { apiCreate, apiList, errorOf, type Harness, harness, ORIGIN, publicPost } from './helpers.js';

const FIELDS = [
  { key: 'company', label: 'Company', type: 'text', required: true },
  { key: 'role', label: 'Role', type: 'select', options: ['Engineer', 'Founder'] },
  { key: 'consent', label: 'I agree', type: 'checkbox', required: true },
];

let h: Harness;
const files = tempDir();
const fieldsFile = (name: string, content: unknown) => {
  const path = join(files.dir, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
};

beforeAll(async () => {
  h = await harness({ WAITLIST_KEY_RATE_LIMIT: '100000' });
});
afterAll(async () => {
  await h.close();
  files.cleanup();
});

async function waitlistWithFields(extra: string[] = [], ipLimit = '1000') {
  const t = await h.tenant({ waitlist: ['--origins', ORIGIN, '--ip-limit', ipLimit, ...extra] });
  await h.cli(['waitlist', 'update', '--waitlist', t.waitlistId, '--fields', fieldsFile('f.json', FIELDS)]);
  return t;
}

async function listOf(t: { key: string; waitlistId: string }, query = '') {
  const res = await apiList(h.server, t.key, t.waitlistId, query);
  expect(res.status).toBe(200);
  return ListPageSchema.parse(await res.json());
}

const GOOD = { company: ' Analytical Engines ', role: 'Founder', consent: true };

describe('fields as settings', () => {
  it('are set from a file, printed by waitlist show, and removed with []', async () => {
    const t = await waitlistWithFields();
    const shown = await h.cli<{ fields: unknown[]; dedupe: string }>([
      'waitlist',
      'show',
      '--waitlist',
      t.waitlistId,
    ]);
    expect(shown.fields).toEqual(FIELDS.map((f) => ({ required: false, ...f })));
    expect(shown.dedupe).toBe('exact');
    const cleared = await h.cli<{ fields: unknown[] }>([
      'waitlist',
      'update',
      '--waitlist',
      t.waitlistId,
      '--fields',
      fieldsFile('none.json', []),
    ]);
    expect(cleared.fields).toEqual([]);
  });

  it('refuses a bad file with a usage error naming what is wrong, and changes nothing', async () => {
    const t = await waitlistWithFields();
    const { run } = inProcess(h.db);
    const label = 'x'.repeat(10_000);
    const cases: [string, RegExp][] = [
      [join(files.dir, 'missing.json'), /no such file/],
      [fieldsFile('bad.json', '{"fields": ['), /not JSON/],
      [fieldsFile('unknown.json', [{ ...FIELDS[0], colour: 'red' }]), /`fields\.0` must not have `colour`/],
      [fieldsFile('type.json', [{ key: 'a', label: 'A', type: 'date' }]), /`fields\.0\.type` must be one of/],
      [
        fieldsFile('label.json', [{ key: 'a', label, type: 'text' }]),
        /`fields\.0\.label` must be at most 80/,
      ],
      [
        fieldsFile('options.json', [
          { key: 'a', label: 'A', type: 'select', options: Array.from({ length: 51 }, (_, i) => `o${i}`) },
        ]),
        /`fields\.0\.options` must be at most 50/,
      ],
      [fieldsFile('dupes.json', [FIELDS[0], FIELDS[0]]), /`fields` must not repeat a key/],
      [
        fieldsFile('key.json', [{ key: 'Company Name', label: 'A', type: 'text' }]),
        /`fields\.0\.key` must start/,
      ],
      [fieldsFile('object.json', { company: 'text' }), /`fields` must be an array/],
    ];
    for (const [path, message] of cases) {
      const result = await run(['waitlist', 'update', '--waitlist', t.waitlistId, '--fields', path]);
      expect(result.code, path).toBe(2);
      expect(result.error.code).toBe('usage_error');
      expect(result.error.message).toMatch(message);
    }
    const shown = await h.cli<{ fields: { key: string }[] }>([
      'waitlist',
      'show',
      '--waitlist',
      t.waitlistId,
    ]);
    expect(shown.fields.map((f) => f.key)).toEqual(['company', 'role', 'consent']);
  });

  it('takes --dedupe exact|provider and refuses anything else', async () => {
    const t = await h.tenant();
    const set = await h.cli<{ dedupe: string }>([
      'waitlist',
      'update',
      '--waitlist',
      t.waitlistId,
      '--dedupe',
      'provider',
    ]);
    expect(set.dedupe).toBe('provider');
    const refused = await inProcess(h.db).run([
      'waitlist',
      'update',
      '--waitlist',
      t.waitlistId,
      '--dedupe',
      'fuzzy',
    ]);
    expect(refused.code).toBe(2);
    expect(refused.error.message).toMatch(/--dedupe must be one of exact, provider/);
  });
});

describe('the create endpoints with fields and a source', () => {
  it('keep the answers and the source of a fresh sign-up, and show them with the channel', async () => {
    const t = await waitlistWithFields();
    const source = {
      utm_source: 'newsletter',
      utm_campaign: 'launch',
      referrer: 'https://news.example/post?id=7#top',
      landing: 'https://landing.example/?utm_source=newsletter&token=secret',
    };
    const res = await publicPost(h.server, t.waitlistId, { email: 'ada@example.com', fields: GOOD, source });
    expect(res.status).toBe(202);
    const api = await apiCreate(h.server, t.key, t.waitlistId, {
      email: 'bob@example.com',
      fields: { company: 'Bob Co', consent: true },
      source: { referrer: 'https://search.example/results', landing: 'https://landing.example/' },
    });
    expect(api.status).toBe(202);
    const plain = await apiCreate(h.server, t.key, t.waitlistId, {
      email: 'cy@example.com',
      fields: { company: 'Cy', consent: true },
    });
    expect(plain.status).toBe(202);
    const { items } = await listOf(t);
    const [ada, bob, cy] = items as [Subscriber, Subscriber, Subscriber];
    expect(ada.fields).toEqual({ company: 'Analytical Engines', role: 'Founder', consent: true });
    expect(ada.source).toEqual({
      utm_source: 'newsletter',
      utm_campaign: 'launch',
      referrer: 'https://news.example/post',
      landing: 'https://landing.example/',
    });
    expect(ada.channel).toBe('newsletter');
    expect(bob.fields).toEqual({ company: 'Bob Co', consent: true });
    expect(bob.channel).toBe('search.example');
    expect(cy.source).toEqual({});
    expect(cy.channel).toBe('direct');
    const one = await fetch(`${h.server.url}/v1/api/waitlists/${t.waitlistId}/subscribers/${ada.id}`, {
      headers: { Authorization: `Bearer ${t.key}` },
    });
    expect(SubscriberSchema.parse(await one.json())).toEqual(ada);
  });

  it('answer a re-sign-up with the identical 202 and keep the first answers and source', async () => {
    const t = await waitlistWithFields(['--referrals', 'on']);
    const first = await publicPost(h.server, t.waitlistId, {
      email: 'ada@example.com',
      fields: GOOD,
      source: { utm_source: 'first' },
    });
    const again = await publicPost(h.server, t.waitlistId, {
      email: 'ADA@example.com',
      fields: { company: 'Other', consent: true },
      source: { utm_source: 'second' },
    });
    expect(again.status).toBe(202);
    expect(await again.text()).toBe(await first.text());
    const viaApi = await apiCreate(h.server, t.key, t.waitlistId, {
      email: 'ada@example.com',
      fields: { company: 'Third', consent: true },
    });
    expect(viaApi.status).toBe(202);
    const { items } = await listOf(t);
    expect(items).toHaveLength(1);
    expect(items[0]?.fields.company).toBe('Analytical Engines');
    expect(items[0]?.source).toEqual({ utm_source: 'first' });
  });

  it('refuse bad answers and bad sources with a 400 naming the key, storing nothing', async () => {
    const t = await waitlistWithFields();
    const cases: [unknown, unknown, RegExp][] = [
      [{ consent: true }, undefined, /`fields\.company` is required\./],
      [
        { ...GOOD, company: 42 },
        undefined,
        /`fields\.company` must be a string or a boolean, not a number\./,
      ],
      [
        { ...GOOD, company: ['a'] },
        undefined,
        /`fields\.company` must be a string or a boolean, not an array\./,
      ],
      [{ ...GOOD, consent: 'yes' }, undefined, /`fields\.consent` must be true or false\./],
      [{ ...GOOD, consent: false }, undefined, /`fields\.consent` must be ticked\./],
      [{ ...GOOD, role: 'CEO' }, undefined, /`fields\.role` must be one of the options offered\./],
      [{ ...GOOD, nickname: 'x' }, undefined, /`fields\.nickname` is not a field of this waitlist\./],
      [{ ...GOOD, company: 'x'.repeat(501) }, undefined, /`fields\.company` must be at most 500 characters/],
      ['company', undefined, /`fields` must be an object, not a string\./],
      [GOOD, { utm_source: { a: 1 } }, /`source\.utm_source` must be a string, not an object\./],
      [GOOD, { utm_source: ['a'] }, /`source\.utm_source` must be/],
      [GOOD, ['newsletter'], /`source` must be an object, not an array\./],
      [GOOD, { utm_source: 'x'.repeat(201) }, /`source\.utm_source` must be at most 200 characters/],
      [GOOD, { referrer: 'javascript:alert(1)' }, /`source\.referrer` must be an http or https URL\./],
      [GOOD, { landing: 'data:text/html,hi' }, /`source\.landing` must be an http or https URL\./],
      [GOOD, { gclid: 'abc' }, /`source` must not have `gclid`\./],
    ];
    for (const [fields, source, message] of cases) {
      const body = { email: 'eve@example.com', fields, ...(source === undefined ? {} : { source }) };
      for (const res of [
        await publicPost(h.server, t.waitlistId, body),
        await apiCreate(h.server, t.key, t.waitlistId, body),
      ]) {
        expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
        const error = await errorOf(res);
        expect(error.code).toBe('invalid_request');
        expect(error.message).toMatch(message);
      }
    }
    // A megabyte is over the public body limit (413) and refused by the API's schema.
    const huge = { email: 'eve@example.com', fields: GOOD, source: { utm_source: 'x'.repeat(1_000_000) } };
    expect((await publicPost(h.server, t.waitlistId, huge)).status).toBe(413);
    expect([400, 413]).toContain((await apiCreate(h.server, t.key, t.waitlistId, huge)).status);
    expect((await listOf(t)).total).toBe(0);
  });

  it('show an answer again when its field is defined again, and never one of a removed field', async () => {
    const t = await waitlistWithFields();
    await publicPost(h.server, t.waitlistId, { email: 'ada@example.com', fields: GOOD });
    await h.cli([
      'waitlist',
      'update',
      '--waitlist',
      t.waitlistId,
      '--fields',
      fieldsFile('less.json', [FIELDS[1]]),
    ]);
    expect((await listOf(t)).items[0]?.fields).toEqual({ role: 'Founder' });
    await h.cli([
      'waitlist',
      'update',
      '--waitlist',
      t.waitlistId,
      '--fields',
      fieldsFile('all.json', FIELDS),
    ]);
    expect((await listOf(t)).items[0]?.fields).toEqual({
      company: 'Analytical Engines',
      role: 'Founder',
      consent: true,
    });
  });
});

describe('erasure', () => {
  it('takes the answers and the source with the row: signing up again starts afresh', async () => {
    const t = await waitlistWithFields();
    await publicPost(h.server, t.waitlistId, {
      email: 'ada@example.com',
      fields: GOOD,
      source: { utm_source: 'first' },
    });
    const [ada] = (await listOf(t)).items;
    const erased = await fetch(`${h.server.url}/v1/api/waitlists/${t.waitlistId}/subscribers/${ada?.id}`, {
      method: 'DELETE',
      headers: { Authorization: `Bearer ${t.key}` },
    });
    expect(erased.status).toBe(204);
    await publicPost(h.server, t.waitlistId, {
      email: 'ada@example.com',
      fields: { company: 'New', consent: true },
    });
    const [again] = (await listOf(t)).items;
    expect(again?.id).not.toBe(ada?.id);
    expect(again?.fields).toEqual({ company: 'New', consent: true });
    expect(again?.source).toEqual({});
    expect(again?.channel).toBe('direct');
  });
});

describe('the list by channel', () => {
  it('filters by referral, direct, a utm_source and a host, with exact totals', async () => {
    const t = await h.tenant({ waitlist: ['--origins', ORIGIN, '--ip-limit', '1000', '--referrals', 'on'] });
    const referrer = (await (
      await publicPost(h.server, t.waitlistId, { email: 'ref@example.com', source: { utm_source: 'ads' } })
    ).json()) as { referral_code: string };
    const sign = (email: string, extra: object) => publicPost(h.server, t.waitlistId, { email, ...extra });
    await sign('a@example.com', { referral_code: referrer.referral_code, source: { utm_source: 'ads' } });
    await sign('b@example.com', { source: { utm_source: 'ads' } });
    await sign('c@example.com', {
      source: { referrer: 'https://blog.example/x', landing: 'https://l.example/' },
    });
    await sign('d@example.com', {});
    await sign('e@example.com', {
      source: { referrer: 'https://l.example/a', landing: 'https://l.example/b' },
    });
    const emails = async (channel: string, extra = '') =>
      (await listOf(t, `?channel=${encodeURIComponent(channel)}${extra}`)).items.map((s) => s.email);
    expect(await emails('referral')).toEqual(['a@example.com']);
    expect(await emails('ads')).toEqual(['ref@example.com', 'b@example.com']);
    expect(await emails('blog.example')).toEqual(['c@example.com']);
    expect(await emails('direct')).toEqual(['d@example.com', 'e@example.com']);
    expect(await emails('nobody')).toEqual([]);
    expect(await emails('ads', '&q=B%40')).toEqual(['b@example.com']);
    const page2 = await listOf(t, '?channel=ads&limit=1&page=2');
    expect(page2.total).toBe(2);
    expect(page2.items.map((s) => [s.email, s.position])).toEqual([['b@example.com', 3]]);
    for (const bad of ['', 'x'.repeat(201)]) {
      const res = await apiList(h.server, t.key, t.waitlistId, `?channel=${bad}`);
      expect(res.status).toBe(400);
      expect((await errorOf(res)).message).toMatch(/`channel`/);
    }
  });

  it("counts direct's total exactly, waiting and admitted, through admissions and an erasure", async () => {
    const t = await h.tenant({ waitlist: ['--origins', ORIGIN, '--ip-limit', '1000', '--referrals', 'on'] });
    const sign = async (email: string, extra: object = {}) =>
      (await (await publicPost(h.server, t.waitlistId, { email, ...extra })).json()) as {
        referral_code: string;
      };
    const ref = await sign('ref@example.com');
    for (const email of ['d1@example.com', 'd2@example.com', 'd3@example.com', 'd4@example.com'])
      await sign(email);
    await sign('u@example.com', { source: { utm_source: 'ads' } });
    await sign('r@example.com', { referral_code: ref.referral_code, source: { utm_source: 'ads' } });
    const idOf = async (email: string) => {
      const q = `?q=${encodeURIComponent(email)}`;
      const found = (await listOf(t, q)).items[0] ?? (await listOf(t, `${q}&status=admitted`)).items[0];
      return found?.id as string;
    };
    const direct = async (status: string) => {
      const page = await listOf(t, `?channel=direct&status=${status}&limit=2`);
      const all = await listOf(t, `?status=${status}&limit=100`);
      // The total is the count of the direct among every listed row, whichever way it is counted.
      expect(page.total).toBe(all.items.filter((s) => s.channel === 'direct').length);
      return page.total;
    };
    expect([await direct('waiting'), await direct('admitted')]).toEqual([5, 0]);
    const admit = async (emails: string[]) => {
      const res = await fetch(`${h.server.url}/v1/api/waitlists/${t.waitlistId}/admissions`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${t.key}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ subscriber_ids: await Promise.all(emails.map(idOf)) }),
      });
      expect(res.status).toBe(200);
    };
    await admit(['d1@example.com', 'u@example.com', 'r@example.com']);
    expect([await direct('waiting'), await direct('admitted')]).toEqual([4, 1]);
    const erase = async (email: string) => {
      const res = await fetch(
        `${h.server.url}/v1/api/waitlists/${t.waitlistId}/subscribers/${await idOf(email)}`,
        {
          method: 'DELETE',
          headers: { Authorization: `Bearer ${t.key}` },
        },
      );
      expect(res.status).toBe(204);
    };
    await erase('d1@example.com');
    await erase('d2@example.com');
    expect([await direct('waiting'), await direct('admitted')]).toEqual([3, 0]);
  });
});

describe('the public form', () => {
  const form = (id: string, origin?: string) =>
    fetch(`${h.server.url}/v1/public/waitlists/${id}/form`, { headers: origin ? { Origin: origin } : {} });

  it('answers the fields with CORS headers and a short cache, a request of no origin too, and 404 like subscribe', async () => {
    const t = await waitlistWithFields([], '1');
    const res = await form(t.waitlistId, ORIGIN);
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    expect(res.headers.get('vary')).toMatch(/Origin/);
    expect(res.headers.get('cache-control')).toBe('public, max-age=60');
    expect(await res.json()).toEqual({ fields: FIELDS.map((f) => ({ required: false, ...f })) });
    // Not counted in the per-IP window (a limit of 1 a minute here).
    for (let i = 0; i < 3; i++) expect((await form(t.waitlistId, ORIGIN)).status).toBe(200);
    expect((await publicPost(h.server, t.waitlistId, { email: 'a@example.com', fields: GOOD })).status).toBe(
      202,
    );
    // Without an Origin (a browser's GET of its own origin: a form the service itself serves),
    // the description, which is no secret, without CORS headers.
    const sameOrigin = await form(t.waitlistId);
    expect(sameOrigin.status).toBe(200);
    expect(sameOrigin.headers.get('access-control-allow-origin')).toBeNull();
    expect(sameOrigin.headers.get('vary')).toMatch(/Origin/);
    expect((await sameOrigin.json()).fields).toHaveLength(FIELDS.length);
    for (const [id, origin] of [
      ['wl_missing', undefined],
      [t.waitlistId, 'https://evil.example'],
      ['wl_missing', ORIGIN],
    ] as const) {
      const refused = await form(id, origin);
      expect(refused.status).toBe(404);
      expect(refused.headers.get('access-control-allow-origin')).toBeNull();
      expect((await errorOf(refused)).code).toBe('not_found');
    }
    const tNew = await h.tenant({ waitlist: ['--origins', ORIGIN] });
    expect(await (await form(tNew.waitlistId, ORIGIN)).json()).toEqual({ fields: [] });
  });
});
