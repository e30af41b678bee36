/**
 * The built package, loaded the way users load it: `require` gets dist/index.cjs, `import` gets
 * dist/index.js, each in a fresh Node process. `instanceof` must hold in both. Run the build
 * first (`pnpm --filter @waitlistkit/client run build`); the root `pnpm test` does.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { API_KEY } from './helpers.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = (file: string) => fileURLToPath(new URL(`../dist/${file}`, import.meta.url));

// Runs in the child with `mod` (the package) and `resolved` (the file it came from) in scope.
const probe = `
const answer = (status, body) => async () =>
  new Response(typeof body === 'string' ? body : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', 'request-id': 'req_dist0123456789abcd' },
  });
const make = (fetch) =>
  new mod.WaitlistClient({ apiKey: ${JSON.stringify(API_KEY)}, baseUrl: 'https://x.test', maxRetries: 0, fetch });
const classes = Object.entries(mod).filter(([, value]) => typeof value === 'function' && value.prototype instanceof Error);
const instanceOf = (error) =>
  Object.fromEntries([...classes.map(([name, Class]) => [name, error instanceof Class]), ['Error', error instanceof Error]]);
const caught = async (run) => { try { await run(); return 'no error'; } catch (error) { return error; } };

const results = {};
results.scope = await caught(() =>
  make(answer(403, { error: { code: 'insufficient_scope', message: 'This key lacks the subscribers:write scope.' } }))
    .subscribers.create('wl_1', { email: 'a@b.co' }));
results.invalid = await caught(() => make(answer(200, { items: 'x', total: 0, page: 1, limit: 25 })).subscribers.list('wl_1'));
results.key = await caught(() => new mod.WaitlistClient({ apiKey: 'wlk_live_nope', baseUrl: 'https://x.test' }));
results.network = await caught(() => make(async () => { throw new TypeError('fetch failed'); }).subscribers.list('wl_1'));
results.inUse = await caught(() =>
  make(answer(409, { error: { code: 'idempotency_key_in_use', message: 'In progress.' } }))
    .subscribers.admit('wl_1', { count: 1 }));
const page = await make(answer(200, { items: [], total: 0, page: 1, limit: 25 })).subscribers.list('wl_1');
const secret = 'whsec_' + 'QUJD'.repeat(8);
const hookBody = JSON.stringify({ type: 'subscriber.deleted', timestamp: '2026-03-01T09:30:00Z', data: { id: 'sub_1', waitlist_id: 'wl_1' } });
const hookHeaders = mod.webhooks.sign({ id: 'msg_dist', timestamp: 1614265330, body: hookBody }, secret);
const hook = {
  headers: hookHeaders,
  event: make(answer(200, {})).webhooks.unwrap(new TextEncoder().encode(hookBody), new Headers(hookHeaders), secret, { now: new Date(1614265330000) }),
  shared: make(answer(200, {})).webhooks === mod.webhooks,
};
results.hookSignature = await caught(() => mod.webhooks.verify(hookBody + ' ', hookHeaders, secret, { now: new Date(1614265330000) }));
results.hookPayload = await caught(() =>
  mod.webhooks.unwrap('{}', mod.webhooks.sign({ timestamp: 1614265330, body: '{}' }, secret), secret, { now: new Date(1614265330000) }));

// The page as a plain copy: its own JSON is the body alone, and this one carries its headers too.
console.log(JSON.stringify({
  resolved,
  page: { ...page },
  pageJson: JSON.stringify(page),
  hook,
  errors: Object.fromEntries(Object.entries(results).map(([key, error]) => [key, { name: error.name, code: error.code, reason: error.reason, requestId: error.requestId, instanceOf: instanceOf(error) }])),
}));
`;

const scripts = {
  require: `(async () => {
    const mod = require('@waitlistkit/client');
    const resolved = require.resolve('@waitlistkit/client');
    ${probe}
    if (Object.keys(require.cache).some((file) => /[\\\\/]ky[\\\\/]/.test(file))) throw new Error('ky was loaded from node_modules');
  })().catch((error) => { console.error(error); process.exit(1); });`,
  import: `
    import * as mod from '@waitlistkit/client';
    import { fileURLToPath } from 'node:url';
    const resolved = fileURLToPath(import.meta.resolve('@waitlistkit/client'));
    ${probe}`,
};

interface ProbeOutput {
  resolved: string;
  page: unknown;
  pageJson: string;
  hook: { headers: Record<string, string>; event: unknown; shared: boolean };
  errors: Record<
    string,
    { name: string; code?: string; reason?: string; requestId?: string; instanceOf: Record<string, boolean> }
  >;
}

function run(kind: keyof typeof scripts): ProbeOutput {
  const inputType = kind === 'require' ? 'commonjs' : 'module';
  const out = execFileSync(process.execPath, [`--input-type=${inputType}`, '-e', scripts[kind]], {
    cwd: root,
    encoding: 'utf8',
  });
  return JSON.parse(out) as ProbeOutput;
}

beforeAll(() => {
  for (const file of ['index.js', 'index.cjs', 'index.d.ts', 'index.d.cts']) {
    expect(existsSync(dist(file)), `dist/${file} is missing: build the client first`).toBe(true);
  }
});

describe.each([
  ['require', 'index.cjs'],
  ['import', 'index.js'],
] as const)('the built package via %s', (kind, file) => {
  let output: ProbeOutput;
  beforeAll(() => {
    output = run(kind);
  });

  it(`resolves to dist/${file}`, () => {
    expect(output.resolved).toBe(dist(file));
  });

  it('works end to end through a plain fetch function', () => {
    expect(output.page).toEqual({
      items: [],
      total: 0,
      page: 1,
      limit: 25,
      rateLimit: {},
      requestId: 'req_dist0123456789abcd',
    });
  });

  it("writes a result's JSON as the body alone", () => {
    expect(JSON.parse(output.pageJson)).toStrictEqual({ items: [], total: 0, page: 1, limit: 25 });
  });

  it('throws errors that are instances of their classes and of no others', () => {
    const { scope, invalid, key, network, inUse } = output.errors;
    expect(scope).toEqual({
      name: 'InsufficientScopeError',
      code: 'insufficient_scope',
      requestId: 'req_dist0123456789abcd',
      instanceOf: expect.objectContaining({
        InsufficientScopeError: true,
        PermissionError: true,
        WaitlistApiError: true,
        WaitlistError: true,
        Error: true,
        FeatureNotAllowedError: false,
        NotFoundError: false,
        ResponseValidationError: false,
      }),
    });
    const only = (names: string[]) =>
      Object.fromEntries(Object.keys(scope?.instanceOf ?? {}).map((name) => [name, names.includes(name)]));
    expect(scope?.instanceOf).toEqual(
      only(['InsufficientScopeError', 'PermissionError', 'WaitlistApiError', 'WaitlistError', 'Error']),
    );
    expect(invalid?.instanceOf).toEqual(only(['ResponseValidationError', 'WaitlistError', 'Error']));
    expect(key?.instanceOf).toEqual(only(['InvalidApiKeyError', 'WaitlistError', 'Error']));
    expect(network?.instanceOf).toEqual(only(['ConnectionError', 'WaitlistError', 'Error']));
    expect(network?.requestId).toBeUndefined();
    expect(inUse?.instanceOf).toEqual(
      only(['IdempotencyKeyInUseError', 'ConflictError', 'WaitlistApiError', 'WaitlistError', 'Error']),
    );
  });

  it('signs, verifies and unwraps webhooks (node:crypto), with their own error classes', () => {
    const { hook, errors } = output;
    expect(hook.headers).toEqual({
      'webhook-id': 'msg_dist',
      'webhook-timestamp': '1614265330',
      'webhook-signature': expect.stringMatching(/^v1,[A-Za-z0-9+/]{43}=$/),
    });
    expect(hook.event).toEqual({
      type: 'subscriber.deleted',
      timestamp: '2026-03-01T09:30:00Z',
      data: { id: 'sub_1', waitlist_id: 'wl_1' },
    });
    expect(hook.shared).toBe(true);
    const only = (names: string[]) =>
      Object.fromEntries(
        Object.keys(errors.scope?.instanceOf ?? {}).map((name) => [name, names.includes(name)]),
      );
    expect(errors.hookSignature).toMatchObject({
      name: 'WebhookVerificationError',
      reason: 'no_matching_signature',
    });
    expect(errors.hookSignature?.instanceOf).toEqual(
      only(['WebhookVerificationError', 'WaitlistError', 'Error']),
    );
    expect(errors.hookPayload?.instanceOf).toEqual(only(['WebhookPayloadError', 'WaitlistError', 'Error']));
  });
});

it('the CommonJS build carries ky instead of requiring the ES-module-only package', () => {
  const cjs = readFileSync(dist('index.cjs'), 'utf8');
  expect(cjs).not.toMatch(/require\(["']ky["']\)/);
  expect(readFileSync(dist('index.js'), 'utf8')).toMatch(/from ["']ky["']/);
});
