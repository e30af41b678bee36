/**
 * Fields, source and channel through the client (docs/subscribers.md#fields,
 * docs/subscribers.md#attribution), against a real reference server; and the types a backend
 * reads them with.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli, type RunningServer, seedTenant, startServer, type Tenant, tempDir } from '@waitlistkit/testkit';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { InvalidRequestError, type SubscriberOf, WaitlistClient } from '../src/index.js';

type Fields = { company: string; role: 'Engineer' | 'Founder'; consent: boolean };

const dir = tempDir();
let server: RunningServer;
let t: Tenant;

beforeAll(async () => {
  t = await seedTenant(dir.db, { waitlist: ['--referrals', 'on'] });
  const file = join(dir.dir, 'fields.json');
  writeFileSync(
    file,
    JSON.stringify([
      { key: 'company', label: 'Company', type: 'text', required: true },
      { key: 'role', label: 'Role', type: 'select', options: ['Engineer', 'Founder'] },
      { key: 'consent', label: 'I agree', type: 'checkbox', required: true },
    ]),
  );
  await cli(['waitlist', 'update', '--waitlist', t.waitlistId, '--fields', file], { db: dir.db });
  server = await startServer({ db: dir.db });
}, 60_000);

afterAll(async () => {
  await server?.stop();
  dir.cleanup();
});

describe('typed fields against the reference server', () => {
  it('creates with fields and a source, and reads them back typed, with the channel', async () => {
    const client = new WaitlistClient<Fields>({ apiKey: t.key, baseUrl: server.url });
    await client.subscribers.create(t.waitlistId, {
      email: 'ada@example.com',
      fields: { company: 'Analytical Engines', role: 'Founder', consent: true },
      source: { utm_source: 'newsletter', landing: 'https://landing.example/?utm_source=newsletter' },
    });
    await client.subscribers.create(t.waitlistId, {
      email: 'bob@example.com',
      fields: { company: 'Bob Co', consent: true },
    });
    const page = await client.subscribers.list(t.waitlistId);
    const ada = page.items[0] as SubscriberOf<Fields>;
    const company: string | undefined = ada.fields.company;
    expect(company).toBe('Analytical Engines');
    expect(ada.fields.consent).toBe(true);
    expect(ada.source).toEqual({ utm_source: 'newsletter', landing: 'https://landing.example/' });
    expect(ada.channel).toBe('newsletter');
    const one = await client.subscribers.get(t.waitlistId, ada.id);
    expect(one.fields.role).toBe('Founder');
    const newsletter = await client.subscribers.list(t.waitlistId, { channel: 'newsletter' });
    expect(newsletter.items.map((s) => s.email)).toEqual(['ada@example.com']);
    expect((await client.subscribers.list(t.waitlistId, { channel: 'direct' })).total).toBe(1);
  });

  it('surfaces the 400 naming the key as InvalidRequestError', async () => {
    const client = new WaitlistClient<Fields>({ apiKey: t.key, baseUrl: server.url });
    const refused = client.subscribers.create(t.waitlistId, {
      email: 'eve@example.com',
      fields: { consent: true },
    });
    await expect(refused).rejects.toBeInstanceOf(InvalidRequestError);
    await expect(refused).rejects.toThrow('`fields.company` is required.');
  });
});

describe('the types', () => {
  it('give each field its answer type, optional, without a cast', () => {
    const client = new WaitlistClient<Fields>({ apiKey: t.key, baseUrl: 'https://api.example' });
    type Got = Awaited<ReturnType<typeof client.subscribers.get>>;
    expectTypeOf<Got['fields']['company']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<Got['fields']['role']>().toEqualTypeOf<'Engineer' | 'Founder' | undefined>();
    expectTypeOf<Got['fields']['consent']>().toEqualTypeOf<boolean | undefined>();
    expectTypeOf<Got['channel']>().toEqualTypeOf<string>();
    expectTypeOf<Got['source']['utm_source']>().toEqualTypeOf<string | undefined>();
    type Params = Parameters<typeof client.subscribers.create>[1];
    expectTypeOf<{ email: string; fields: { company: string } }>().toExtend<Params>();
    expectTypeOf<{ email: string; fields: { company: number } }>().not.toExtend<Params>();
    // Untyped, the fields are the wire's record.
    const plain = new WaitlistClient({ apiKey: t.key, baseUrl: 'https://api.example' });
    type Plain = Awaited<ReturnType<typeof plain.subscribers.get>>;
    expectTypeOf<Plain['fields']>().toEqualTypeOf<Record<string, string | boolean>>();
  });
});
