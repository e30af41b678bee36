/**
 * A sign-up records its language (docs/languages.md#what-a-sign-up-records) over HTTP, on
 * whichever store the run uses: `lang` on both create endpoints and its refusals, the subscriber
 * objects of the API, the list, a webhook event, the export and the import that carry it, and
 * the waitlist's `default_lang` through the command line.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LANGUAGES, ListPageSchema, SubscriberSchema, WebhookEventSchema } from '@waitlistkit/protocol';
import { cli, type Tenant } from '@waitlistkit/testkit';
import { describe, expect, it } from 'vitest';
import { runCommandLine } from '../src/cli/main.js';
import { inProcess } from './cli-in-process.js';
import { apiCreate, apiList, Browser, errorOf, ORIGIN, publicPost, until } from './helpers.js';
import { importHarness } from './import-harness.js';
import { receiver } from './webhook-receiver.js';

const ENV = { WAITLIST_WEBHOOK_ALLOW_PRIVATE: '1', WAITLIST_WEBHOOK_RETRY_SCHEDULE: '0,0,0' };
const { h, dir, file, importFile } = importHarness(ENV);

const waitlist = (extra: string[] = []) =>
  h().tenant({ waitlist: ['--origins', ORIGIN, '--ip-limit', '1000', ...extra] });

async function listOf(t: Tenant, query = '') {
  const res = await apiList(h().server, t.key, t.waitlistId, query);
  expect(res.status).toBe(200);
  return ListPageSchema.parse(await res.json()).items;
}

const langs = async (t: Tenant) => (await listOf(t)).map((s) => [s.email, s.lang]);

describe('lang on the create endpoints', () => {
  it('is recorded from a public and an API sign-up, and is null for one without it', async () => {
    const t = await waitlist();
    // One after another: the line's order is the order they arrive in.
    const sign = [
      () => publicPost(h().server, t.waitlistId, { email: 'ada@example.com', lang: 'pt' }),
      () => apiCreate(h().server, t.key, t.waitlistId, { email: 'bob@example.com', lang: 'zh-Hant' }),
      () => publicPost(h().server, t.waitlistId, { email: 'cy@example.com' }),
      () => apiCreate(h().server, t.key, t.waitlistId, { email: 'di@example.com' }),
      () => publicPost(h().server, t.waitlistId, { email: 'eve@example.com', lang: 'ar' }),
    ];
    for (const signUp of sign) expect((await signUp()).status).toBe(202);
    expect(await langs(t)).toEqual([
      ['ada@example.com', 'pt'],
      ['bob@example.com', 'zh-Hant'],
      ['cy@example.com', null],
      ['di@example.com', null],
      ['eve@example.com', 'ar'],
    ]);
    const [ada] = await listOf(t);
    const one = await fetch(`${h().server.url}/v1/api/waitlists/${t.waitlistId}/subscribers/${ada?.id}`, {
      headers: { Authorization: `Bearer ${t.key}` },
    });
    expect(SubscriberSchema.parse(await one.json())).toEqual(ada);
  });

  it('keeps each one’s own language when many sign up at once', async () => {
    const t = await waitlist();
    const people = LANGUAGES.map((lang, i) => ({ email: `p${i}@example.com`, lang }));
    const answers = await Promise.all(
      people.map((body, i) =>
        i % 3 === 0
          ? apiCreate(h().server, t.key, t.waitlistId, body)
          : publicPost(h().server, t.waitlistId, i % 3 === 1 ? body : { email: body.email }),
      ),
    );
    for (const res of answers) expect(res.status).toBe(202);
    const got = new Map((await listOf(t, '?limit=100')).map((s) => [s.email, s.lang]));
    expect(got.size).toBe(people.length);
    for (const [i, { email, lang }] of people.entries())
      expect(got.get(email), email).toBe(i % 3 === 2 ? null : lang);
  });

  it('takes every supported tag', async () => {
    const t = await waitlist();
    for (const [i, lang] of LANGUAGES.entries()) {
      const res = await apiCreate(h().server, t.key, t.waitlistId, { email: `p${i}@example.com`, lang });
      expect(res.status, lang).toBe(202);
    }
    expect((await listOf(t, '?limit=100')).map((s) => s.lang)).toEqual([...LANGUAGES]);
  });

  it('answers a sign-up with lang exactly as one without it: the 202 is part one’s', async () => {
    const t = await waitlist(['--referrals', 'on']);
    const without = await publicPost(h().server, t.waitlistId, { email: 'ada@example.com' });
    const withLang = await publicPost(h().server, t.waitlistId, { email: 'bob@example.com', lang: 'de' });
    const keys = async (res: Response) => Object.keys((await res.json()) as object);
    expect(await keys(withLang)).toEqual(await keys(without));
    expect(withLang.headers.get('content-type')).toBe(without.headers.get('content-type'));
  });

  it('refuses every value that is not a supported tag with a 400 naming `lang`, storing nothing', async () => {
    const t = await waitlist();
    const bad: unknown[] = [
      'x'.repeat(10_240),
      42,
      '__proto__',
      'constructor',
      'sw',
      'pt-BR',
      'EN',
      'zh-hant',
      ' en',
      '',
      null,
      true,
      ['en'],
      { en: true },
    ];
    for (const lang of bad) {
      const body = { email: 'eve@example.com', lang };
      for (const res of [
        await publicPost(h().server, t.waitlistId, body),
        await apiCreate(h().server, t.key, t.waitlistId, body),
      ]) {
        expect(res.status, JSON.stringify(lang).slice(0, 40)).toBe(400);
        const error = await errorOf(res);
        expect(error.code).toBe('invalid_request');
        expect(error.message).toMatch(/^`lang` must be one of "en", "ar", /);
        expect(error.message.length).toBeLessThan(400);
      }
    }
    // `__proto__` as a key of the body is an own member to JSON.parse: a key the schema drops, not a language.
    const proto = '{"email": "eve@example.com", "__proto__": {"lang": "de"}}';
    expect((await publicPost(h().server, t.waitlistId, proto)).status).toBe(202);
    expect(await langs(t)).toEqual([['eve@example.com', null]]);
  });

  it('keeps the first sign-up’s language: a re-sign-up with another, or with one at last, changes nothing', async () => {
    const t = await waitlist(['--referrals', 'on']);
    const first = await publicPost(h().server, t.waitlistId, { email: 'ada@example.com', lang: 'de' });
    const again = await publicPost(h().server, t.waitlistId, { email: 'ADA@example.com', lang: 'fr' });
    expect(again.status).toBe(202);
    expect(await again.text()).toBe(await first.text());
    expect(
      (await apiCreate(h().server, t.key, t.waitlistId, { email: 'ada@example.com', lang: 'es' })).status,
    ).toBe(202);
    await publicPost(h().server, t.waitlistId, { email: 'bob@example.com' });
    await apiCreate(h().server, t.key, t.waitlistId, { email: 'bob@example.com', lang: 'it' });
    expect(await langs(t)).toEqual([
      ['ada@example.com', 'de'],
      ['bob@example.com', null],
    ]);
  });

  it('goes with the person at erasure: signing up again records the new one', async () => {
    const t = await waitlist();
    await publicPost(h().server, t.waitlistId, { email: 'ada@example.com', lang: 'he' });
    const [ada] = await listOf(t);
    const erased = await fetch(`${h().server.url}/v1/api/waitlists/${t.waitlistId}/subscribers/${ada?.id}`, {
      method: 'DELETE',
      headers: { Authorization: `Bearer ${t.key}` },
    });
    expect(erased.status).toBe(204);
    await publicPost(h().server, t.waitlistId, { email: 'ada@example.com' });
    expect(await langs(t)).toEqual([['ada@example.com', null]]);
  });
});

describe('lang in what the service sends', () => {
  it('is in the subscriber.created event’s data', async () => {
    const r = await receiver(() => 200);
    try {
      const t = await waitlist();
      await cli(['webhook', 'create', '--operator', t.operatorId, '--url', `${r.url}/hook`], {
        db: h().db,
        env: ENV,
      });
      await publicPost(h().server, t.waitlistId, { email: 'ada@example.com', lang: 'fa' });
      await apiCreate(h().server, t.key, t.waitlistId, { email: 'bob@example.com' });
      const got = await until('both deliveries', () => r.received.length >= 2 && r.received);
      const data = got
        .map((x) => WebhookEventSchema.parse(JSON.parse(x.body)))
        .map((event) => (event.type === 'subscriber.created' ? [event.data.email, event.data.lang] : []))
        .sort();
      expect(data).toEqual([
        ['ada@example.com', 'fa'],
        ['bob@example.com', null],
      ]);
    } finally {
      await r.close();
    }
  });

  it('is the export’s lang column, and an import of the export keeps it', async () => {
    const t = await waitlist();
    await publicPost(h().server, t.waitlistId, { email: 'ada@example.com', lang: 'de' });
    await apiCreate(h().server, t.key, t.waitlistId, { email: 'bob@example.com' });
    await apiCreate(h().server, t.key, t.waitlistId, { email: 'cy@example.com', lang: 'zh-Hant' });
    const to = join(dir, 'languages-export.csv');
    await h().cli(['subscriber', 'export', '--waitlist', t.waitlistId, '--to', to]);
    const [header, ...rows] = readFileSync(to, 'utf8').split('\r\n');
    const at = header?.split(',').indexOf('lang') as number;
    expect(at).toBe(4);
    expect(rows.filter((row) => row !== '').map((row) => row.split(',')[at])).toEqual(['de', '', 'zh-Hant']);

    const copy = await waitlist();
    expect(await importFile(copy, to)).toMatchObject({ imported: 3, invalid: [] });
    expect(await langs(copy)).toEqual(await langs(t));
  });
});

describe('lang in an import', () => {
  it('is kept as the language we speak that the tag asks for; a language we lack moves in without one', async () => {
    const t = await waitlist();
    const csv = file(
      [
        'email,lang',
        'ada@example.com,pt-BR',
        'bob@example.com,zh-TW',
        'cy@example.com,sw',
        'di@example.com,',
        'eve@example.com,FR',
      ].join('\n'),
    );
    expect(await importFile(t, csv)).toMatchObject({ imported: 5, invalid: [] });
    expect(await langs(t)).toEqual([
      ['ada@example.com', 'pt'],
      ['bob@example.com', 'zh-Hant'],
      ['cy@example.com', null],
      ['di@example.com', null],
      ['eve@example.com', 'fr'],
    ]);
  });

  it('refuses a cell that is no language tag as an invalid row, importing nothing', async () => {
    const t = await waitlist();
    const csv = file(
      ['email,lang', 'ada@example.com,de', `bob@example.com,${'x'.repeat(10_240)}`].join('\n'),
    );
    const summary = await importFile(t, csv);
    expect(summary.imported).toBe(0);
    expect(summary.invalid).toEqual([{ line: 3, reason: '`lang` is not a language tag (BCP 47).' }]);
    expect(await listOf(t)).toEqual([]);
  });
});

describe('--default-lang', () => {
  it('is en for a new waitlist, set by create and update, and shown', async () => {
    const t = await waitlist();
    const show = () => h().cli<{ default_lang: string }>(['waitlist', 'show', '--waitlist', t.waitlistId]);
    expect((await show()).default_lang).toBe('en');
    const updated = await h().cli<{ default_lang: string }>([
      'waitlist',
      'update',
      '--waitlist',
      t.waitlistId,
      '--default-lang',
      'zh-Hant',
    ]);
    expect(updated.default_lang).toBe('zh-Hant');
    expect((await show()).default_lang).toBe('zh-Hant');
    const created = await h().cli<{ default_lang: string }>([
      'waitlist',
      'create',
      '--tenant',
      t.tenantId,
      '--name',
      'Hebrew first',
      '--default-lang',
      'he',
    ]);
    expect(created.default_lang).toBe('he');
  });

  it('refuses anything but a supported tag, naming the option, and changes nothing', async () => {
    const t = await waitlist(['--default-lang', 'de']);
    const { run } = inProcess(h().db);
    for (const bad of ['sw', 'pt-BR', 'EN', '', '__proto__', 'x'.repeat(10_240)]) {
      const refused = await run(['waitlist', 'update', '--waitlist', t.waitlistId, '--default-lang', bad]);
      expect(refused.code, bad.slice(0, 20)).toBe(2);
      expect(refused.error.code).toBe('usage_error');
      expect(refused.error.message).toMatch(/^--default-lang must be one of en, ar, /);
    }
    const shown = await h().cli<{ default_lang: string }>(['waitlist', 'show', '--waitlist', t.waitlistId]);
    expect(shown.default_lang).toBe('de');
  });

  it('is a choice of the dashboard’s settings form, saved and refused by the same definition', async () => {
    const t = await waitlist();
    const b = new Browser(h().server.url);
    await b.signIn(`admin-${t.tenantId}@test.example`);
    const path = `/dashboard/waitlists/${t.waitlistId}`;
    const page = await b.get(path);
    expect(page.html).toMatch(/<select id="[^"]+" name="default_lang"/);
    expect(page.html).toContain('<option value="en" selected>');
    const form = {
      _csrf: Browser.csrf(page.html),
      name: 'Launch',
      referral_boost: '0',
      origins: ORIGIN,
      challenge_min_age_ms: '1500',
      pow_difficulty: '18',
      pow_surge_threshold: '120',
      ip_limit: '1000',
    };
    expect((await b.post(path, { ...form, default_lang: 'fa' })).res.status).toBe(303);
    const show = () => h().cli<{ default_lang: string }>(['waitlist', 'show', '--waitlist', t.waitlistId]);
    expect((await show()).default_lang).toBe('fa');
    expect((await b.get(path)).html).toContain('<option value="fa" selected>');
    for (const bad of ['sw', 'pt-BR', '__proto__', 'x'.repeat(10_240)]) {
      const refused = await b.post(path, { ...form, default_lang: bad });
      expect(refused.res.status).toBe(400);
      expect(refused.html).toContain('Choose one of en, ar, ');
    }
    expect((await show()).default_lang).toBe('fa');
  });

  it('is listed in the help as --default-lang TAG', async () => {
    let help = '';
    const code = await runCommandLine(['waitlist', 'update', '--help'], {
      stdout: (text) => {
        help += text;
      },
      stderr: () => undefined,
      env: {},
    });
    expect(code).toBe(0);
    expect(help).toMatch(/--default-lang TAG +language of pages and mails/);
  });
});
