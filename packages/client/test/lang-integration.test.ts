/**
 * A sign-up's language through the client (docs/languages.md#what-a-sign-up-records), against a
 * real reference server: `lang` is sent, refused before sending when it is no supported tag, and
 * read back typed.
 */
import type { Language } from '@waitlistkit/protocol';
import { type RunningServer, seedTenant, startServer, type Tenant, tempDir } from '@waitlistkit/testkit';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { WaitlistClient } from '../src/index.js';

const dir = tempDir();
let server: RunningServer;
let t: Tenant;

beforeAll(async () => {
  t = await seedTenant(dir.db);
  server = await startServer({ db: dir.db });
}, 60_000);

afterAll(async () => {
  await server?.stop();
  dir.cleanup();
});

describe('lang against the reference server', () => {
  it('is sent with a create and returned by get and list, null for a sign-up without one', async () => {
    const client = new WaitlistClient({ apiKey: t.key, baseUrl: server.url });
    await client.subscribers.create(t.waitlistId, { email: 'ada@example.com', lang: 'he' });
    await client.subscribers.create(t.waitlistId, { email: 'bob@example.com' });
    const page = await client.subscribers.list(t.waitlistId);
    expect(page.items.map((s) => [s.email, s.lang])).toEqual([
      ['ada@example.com', 'he'],
      ['bob@example.com', null],
    ]);
    const ada = await client.subscribers.get(t.waitlistId, page.items[0]?.id as string);
    expect(ada.lang).toBe('he');
  });

  it('refuses a tag we lack before sending, naming `lang`', async () => {
    const client = new WaitlistClient({ apiKey: t.key, baseUrl: server.url });
    const refused = client.subscribers.create(t.waitlistId, {
      email: 'eve@example.com',
      lang: 'pt-BR' as Language,
    });
    // A caller's mistake, as every argument the protocol's schema refuses: nothing is sent.
    await expect(refused).rejects.toBeInstanceOf(TypeError);
    await expect(refused).rejects.toThrow(/^subscribers\.create: `lang` must be one of "en", /);
    expect((await client.subscribers.list(t.waitlistId, { q: 'eve' })).total).toBe(0);
  });
});

describe('the types', () => {
  it('type `lang` as a supported tag: optional on create, a tag or null on a subscriber', () => {
    const client = new WaitlistClient({ apiKey: t.key, baseUrl: 'https://api.example' });
    type Got = Awaited<ReturnType<typeof client.subscribers.get>>;
    expectTypeOf<Got['lang']>().toEqualTypeOf<Language | null>();
    type Params = Parameters<typeof client.subscribers.create>[1];
    expectTypeOf<Params['lang']>().toEqualTypeOf<Language | undefined>();
    expectTypeOf<{ email: string; lang: 'zh-Hant' }>().toExtend<Params>();
    expectTypeOf<{ email: string; lang: 'klingon' }>().not.toExtend<Params>();
  });
});
