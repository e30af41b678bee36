import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  AcceptedSignupSchema,
  AdmissionsResultSchema,
  ChallengeRequiredSchema,
  checkEmail,
  ErrorBodySchema,
  ListPageSchema,
  type Subscriber,
  SubscriberSchema,
} from '@waitlistkit/protocol';
import type { Tenant } from '@waitlistkit/testkit';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCreate, apiList, type Harness, harness, ORIGIN } from './helpers.js';

let h: Harness;
let t: Tenant;
beforeAll(async () => {
  h = await harness({ WAITLIST_KEY_RATE_LIMIT: '1000000', WAITLIST_LOG: 'quiet' });
  t = await h.tenant({
    waitlist: [
      '--origins',
      ORIGIN,
      '--referrals',
      'on',
      '--ip-limit',
      '1000000',
      '--email-throttle',
      'on',
      '--block-disposable',
      'on',
    ],
  });
  // Fields to answer (docs/subscribers.md#fields), optional so that the seeds below need none.
  const fields = join(tmpdir(), `fuzz-fields-${process.pid}.json`);
  writeFileSync(
    fields,
    JSON.stringify([
      { key: 'company', label: 'Company', type: 'text' },
      { key: 'role', label: 'Role', type: 'select', options: ['Engineer', 'Founder'] },
      { key: 'consent', label: 'I agree', type: 'checkbox' },
    ]),
  );
  await h.cli(['waitlist', 'update', '--waitlist', t.waitlistId, '--fields', fields]);
  // A line before the fuzz, so the check of stored rows at the end never reads an empty one:
  // the fuzz's own sign-ups are random, and a run may make none.
  for (const n of [1, 2, 3]) {
    const created = await apiCreate(h.server, t.key, t.waitlistId, { email: `seed${n}@example.com` });
    expect(created.status).toBe(202);
  }
});
afterAll(() => h.close());

const printable = fc.string({
  unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
  maxLength: 80,
});

/** Bodies: mostly near-valid (an email plus noise), then arbitrary JSON, then not JSON at all. */
const body = fc.oneof(
  fc
    .record(
      {
        email: fc.oneof(fc.emailAddress(), fc.string({ maxLength: 300 }), fc.anything()),
        referral_code: fc.oneof(fc.string({ maxLength: 10 }), fc.anything()),
        client_country: fc.oneof(fc.constantFrom('US', 'de', 'XX', ''), fc.anything()),
        challenge_token: fc.oneof(fc.string({ maxLength: 300 }), fc.anything()),
        pow: fc.oneof(
          fc.record({
            nonce: fc.string({ maxLength: 300 }),
            solution: fc.oneof(fc.integer(), fc.double(), fc.string()),
          }),
          fc.anything(),
        ),
        fields: fc.oneof(
          fc.record(
            {
              company: fc.oneof(fc.string({ maxLength: 600 }), fc.anything()),
              role: fc.oneof(fc.constantFrom('Engineer', 'Founder', 'CEO', ''), fc.anything()),
              consent: fc.oneof(fc.boolean(), fc.anything()),
              other: fc.anything(),
            },
            { requiredKeys: [] },
          ),
          fc.anything(),
        ),
        source: fc.oneof(
          fc.record(
            {
              utm_source: fc.oneof(fc.string({ maxLength: 250 }), fc.anything()),
              utm_campaign: fc.string({ maxLength: 50 }),
              referrer: fc.oneof(
                fc.webUrl(),
                fc.constantFrom('javascript:alert(1)', 'ftp://x.example/'),
                fc.string(),
              ),
              landing: fc.oneof(fc.webUrl({ withQueryParameters: true, withFragments: true }), fc.anything()),
              gclid: fc.string({ maxLength: 5 }),
            },
            { requiredKeys: [] },
          ),
          fc.anything(),
        ),
        extra: fc.anything(),
      },
      { requiredKeys: [] },
    )
    .map((value) => JSON.stringify(value)),
  fc.json({ maxDepth: 6 }),
  fc.string({ maxLength: 200 }),
  fc.constantFrom(
    '',
    '{',
    '[]',
    'null',
    '"x"',
    '{"email":"a@b.co"',
    '{"__proto__":{"email":"x@y.co"}}',
    'x'.repeat(20_000),
  ),
  fc.nat({ max: 40 }).map((depth) => `${'{"a":'.repeat(depth * 50)}1${'}'.repeat(depth * 50)}`),
);

const contentType = fc.oneof(
  fc.constant('application/json'),
  fc.constantFrom(
    'application/json; charset=utf-8',
    'application/json; charset=latin1',
    'text/plain',
    'application/x-www-form-urlencoded',
    'APPLICATION/JSON',
    '',
  ),
  printable,
);

const origin = fc.oneof(fc.constant(ORIGIN), fc.constant(`${ORIGIN}/`), fc.constant('null'), printable);

function expectContractAnswer(status: number, text: string): void {
  expect(status).toBeLessThan(500);
  if (status === 204) return;
  const json = JSON.parse(text);
  const schema =
    status === 202 ? AcceptedSignupSchema : status === 428 ? ChallengeRequiredSchema : ErrorBodySchema;
  expect(schema.safeParse(json).success).toBe(true);
}

async function post(path: string, headers: Record<string, string>, payload: string) {
  const res = await fetch(`${h.server.url}${path}`, { method: 'POST', headers, body: payload });
  return { status: res.status, text: await res.text() };
}

// Thousands of requests each: minutes, not seconds, on a machine whose cores are busy elsewhere.
describe('hostile input never causes a 500, a crash or a partial row', { timeout: 300_000 }, () => {
  it('public subscribe: random bodies, content types and origins', async () => {
    await fc.assert(
      fc.asyncProperty(body, contentType, origin, async (payload, type, from) => {
        const headers: Record<string, string> = { Origin: from };
        if (type) headers['Content-Type'] = type;
        const { status, text } = await post(
          `/v1/public/waitlists/${t.waitlistId}/subscribers`,
          headers,
          payload,
        );
        expectContractAnswer(status, text);
      }),
      { numRuns: 1500 },
    );
  });

  it('customer API create: random bodies and authorization headers', async () => {
    const authorization = fc.oneof(
      fc.constant(`Bearer ${t.key}`),
      fc.constant(`bearer ${t.key}`),
      printable.map((s) => `Bearer ${s}`),
      printable,
      fc.constant(`Bearer ${t.key} extra`),
    );
    await fc.assert(
      fc.asyncProperty(body, contentType, authorization, async (payload, type, auth) => {
        const headers: Record<string, string> = { Authorization: auth };
        if (type) headers['Content-Type'] = type;
        const { status, text } = await post(
          `/v1/api/waitlists/${t.waitlistId}/subscribers`,
          headers,
          payload,
        );
        expectContractAnswer(status, text);
      }),
      { numRuns: 1000 },
    );
  });

  it('customer API list: random query strings', async () => {
    const pair = fc.tuple(
      fc.constantFrom('page', 'limit', 'q', 'x', 'page[]', 'q[a]', 'channel', 'channel[]'),
      fc.oneof(fc.string({ maxLength: 30 }), fc.nat().map(String)),
    );
    const raw = fc.constantFrom(
      '?%',
      '?%zz',
      '?page=%FF',
      '?q=%00',
      '?&&&',
      '?q',
      '?page=1e2',
      '?limit=0x10',
      '?page=١',
    );
    const query = fc.oneof(
      fc
        .array(pair, { maxLength: 4 })
        .map((pairs) => `?${pairs.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&')}`),
      raw,
    );
    await fc.assert(
      fc.asyncProperty(query, async (q) => {
        const res = await apiList(h.server, t.key, t.waitlistId, q);
        const text = await res.text();
        expect(res.status).toBeLessThan(500);
        if (res.status === 200) expect(ListPageSchema.safeParse(JSON.parse(text)).success).toBe(true);
        else expectContractAnswer(res.status, text);
      }),
      { numRuns: 800 },
    );
  });

  it('every endpoint: random waitlist ids and methods', async () => {
    const id = fc.oneof(
      fc.string({ maxLength: 40 }).map(encodeURIComponent),
      fc.constantFrom('%', '%zz', '..', '%2F..%2F', 'wl_', t.waitlistId.toLowerCase()),
    );
    const area = fc.constantFrom('api', 'public');
    const method = fc.constantFrom('GET', 'POST', 'OPTIONS', 'PUT', 'DELETE', 'PATCH');
    await fc.assert(
      fc.asyncProperty(area, id, method, async (where, waitlistId, verb) => {
        const res = await fetch(`${h.server.url}/v1/${where}/waitlists/${waitlistId}/subscribers`, {
          method: verb,
          headers: { Authorization: `Bearer ${t.key}`, Origin: ORIGIN, 'Content-Type': 'application/json' },
          ...(verb === 'GET' || verb === 'OPTIONS' ? {} : { body: '{"email":"fuzz@example.com"}' }),
        });
        const text = await res.text();
        expect(res.status).toBeLessThan(500);
        if (res.status !== 200 && res.status !== 204) expectContractAnswer(res.status, text);
      }),
      { numRuns: 600 },
    );
  });

  it('lifecycle endpoints: random admission bodies, Idempotency-Keys and subscriber ids', async () => {
    const admission = fc.oneof(
      fc
        .record(
          {
            count: fc.oneof(
              fc.integer({ min: -5, max: 1200 }),
              fc.double(),
              fc.string({ maxLength: 5 }),
              fc.anything(),
            ),
            subscriber_ids: fc.oneof(
              fc.array(fc.string({ maxLength: 80 }), { maxLength: 1100 }),
              fc.anything(),
            ),
          },
          { requiredKeys: [] },
        )
        .map((value) => JSON.stringify(value)),
      body,
    );
    const idempotencyKey = fc.option(
      fc.oneof(
        printable,
        fc.string({ minLength: 250, maxLength: 300 }),
        fc.constantFrom(' ', 'a b', '\u00e9t\u00e9'),
      ),
      { nil: undefined },
    );
    const subscriberId = fc.oneof(
      fc.string({ maxLength: 80 }).map(encodeURIComponent),
      fc.constantFrom('%', '%zz', '..', 'sub_', 'sub_%00'),
    );
    const operation = fc.oneof(
      fc.record({
        verb: fc.constant('POST'),
        path: fc.constant('admissions'),
        payload: admission,
        key: idempotencyKey,
      }),
      fc.record({
        verb: fc.constantFrom('GET', 'DELETE'),
        path: subscriberId.map((id) => `subscribers/${id}`),
        payload: fc.constant(undefined),
        key: fc.constant(undefined),
      }),
    );
    await fc.assert(
      fc.asyncProperty(operation, async ({ verb, path, payload, key }) => {
        const headers: Record<string, string> = {
          Authorization: `Bearer ${t.key}`,
          'Content-Type': 'application/json',
        };
        if (key !== undefined) headers['Idempotency-Key'] = key;
        const url = new URL(`${h.server.url}/v1/api/waitlists/${t.waitlistId}/${path}`);
        const res = await fetch(url, {
          method: verb,
          headers,
          ...(payload === undefined ? {} : { body: payload }),
        });
        const text = await res.text();
        expect(res.status).toBeLessThan(500);
        expect(res.headers.get('request-id')).toMatch(/^req_/);
        if (res.status === 200) {
          // An empty or dot id leaves the URL naming the list itself.
          const listing = /\/subscribers\/?$/.test(url.pathname);
          const schema =
            verb === 'POST' ? AdmissionsResultSchema : listing ? ListPageSchema : SubscriberSchema;
          expect(schema.safeParse(JSON.parse(text)).success).toBe(true);
        } else if (res.status !== 204) expectContractAnswer(res.status, text);
      }),
      { numRuns: 600 },
    );
  });

  it('leaves the server alive and every stored row whole', async () => {
    expect((await fetch(`${h.server.url}/healthz`)).status).toBe(200);
    const read = async (status: 'waiting' | 'admitted') => {
      const items: Subscriber[] = [];
      let total = 0;
      for (let page = 1; ; page++) {
        const res = await apiList(h.server, t.key, t.waitlistId, `?status=${status}&limit=200&page=${page}`);
        const listed = ListPageSchema.parse(await res.json());
        total = listed.total;
        if (listed.items.length === 0) break;
        items.push(...listed.items);
      }
      expect(items.length).toBe(total);
      return items;
    };
    // The lifecycle fuzz may have let anyone in: the line and the admitted together are everyone.
    const waiting = await read('waiting');
    const admitted = await read('admitted');
    const items = [...waiting, ...admitted];
    expect(items.length).toBeGreaterThan(0);
    expect(waiting.map((s) => s.position)).toEqual(waiting.map((_, i) => i + 1));
    expect(admitted.every((s) => s.position === null && s.status === 'admitted')).toBe(true);
    for (const s of items) {
      expect(checkEmail(s.email).ok).toBe(true);
      expect(s.referral_code).toMatch(/^[23456789A-HJ-NP-Z]{6}$/);
      // What was stored of the answers and the source passed their checks: no stray key, no URL's query.
      expect(Object.keys(s.fields).every((k) => ['company', 'role', 'consent'].includes(k))).toBe(true);
      expect(typeof (s.fields.company ?? '')).toBe('string');
      for (const page of [s.source.referrer, s.source.landing])
        if (page !== undefined) expect(page).toMatch(/^https?:\/\/[^?#]*$/);
    }
    const normalized = items.map((s) => checkEmail(s.email)).map((c) => (c.ok ? c.normalized : ''));
    expect(new Set(normalized).size).toBe(items.length);
  });
});
