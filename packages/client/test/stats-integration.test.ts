/** `client.stats` (docs/insights.md#stats) against a real reference server: the answer typed, the range checked. */
import { type RunningServer, seedTenant, startServer, type Tenant, tempDir } from '@waitlistkit/testkit';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { InvalidRequestError, type Stats, WaitlistClient } from '../src/index.js';

const ORIGIN = 'https://landing.example';
const dir = tempDir();
let server: RunningServer;
let t: Tenant;

beforeAll(async () => {
  t = await seedTenant(dir.db, { waitlist: ['--origins', ORIGIN] });
  server = await startServer({ db: dir.db });
}, 60_000);

afterAll(async () => {
  await server?.stop();
  dir.cleanup();
});

const today = () => new Date().toISOString().slice(0, 10);

describe('client.stats against the reference server', () => {
  it('reads the days, channels and totals of a range', async () => {
    const client = new WaitlistClient({ apiKey: t.key, baseUrl: server.url });
    const viewed = await fetch(`${server.url}/v1/public/waitlists/${t.waitlistId}/views`, {
      method: 'POST',
      headers: { Origin: ORIGIN, 'Content-Type': 'text/plain' },
      body: JSON.stringify({ source: { utm_source: 'newsletter' } }),
    });
    expect(viewed.status).toBe(204);
    await client.subscribers.create(t.waitlistId, {
      email: 'ada@example.com',
      source: { utm_source: 'newsletter' },
    });

    const stats = await client.stats(t.waitlistId, { from: today(), to: today() });
    expectTypeOf(stats.totals.conversion).toEqualTypeOf<number | null>();
    expect(stats.days).toEqual([
      { date: today(), views: 1, signups: 1, confirmed: 0, referred: 0, admitted: 0 },
    ]);
    expect(stats.channels).toEqual([{ channel: 'newsletter', views: 1, signups: 1 }]);
    expect(stats.totals).toEqual({ views: 1, signups: 1, conversion: 1, referred_share: 0, k_factor: 0 });
    expect(stats.requestId).toMatch(/^req_/);
    // The wire object alone, as JSON.
    expect(Object.keys(JSON.parse(JSON.stringify(stats)) as Stats)).toEqual(['days', 'channels', 'totals']);
    expect((await client.stats(t.waitlistId)).days).toHaveLength(30);
  });

  it('refuses a malformed date before sending, and passes on the service’s refusal of a range', async () => {
    const client = new WaitlistClient({ apiKey: t.key, baseUrl: server.url });
    await expect(client.stats(t.waitlistId, { from: '1 March' })).rejects.toThrow(
      'client.stats: `from` must be a date written YYYY-MM-DD.',
    );
    await expect(client.stats(t.waitlistId, { since: '2025-01-01' } as never)).rejects.toThrow(
      /client\.stats: unknown parameter `since`/,
    );
    await expect(client.stats('', {})).rejects.toThrow(
      'client.stats: `waitlistId` must be a non-empty string.',
    );
    const reversed = client.stats(t.waitlistId, { from: '2025-03-02', to: '2025-03-01' });
    await expect(reversed).rejects.toBeInstanceOf(InvalidRequestError);
    await expect(reversed).rejects.toThrow(/`from` must not be after `to`/);
    await expect(client.stats(t.waitlistId, { from: '2024-01-01', to: '2025-01-01' })).rejects.toThrow(
      /at most 366/,
    );
  });
});
