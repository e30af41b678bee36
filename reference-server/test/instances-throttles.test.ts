/**
 * Throttles count across servers on one PostgreSQL database (docs/self-hosting.md#several-servers): three `serve`
 * processes, requests sent to them in turn, and each limit is reached once, not once per process.
 * PostgreSQL only (the server-pg project): SQLite keeps throttle counters in each process's memory
 * by design (store/memory-limiter.ts says why), its file being served by one process.
 */
import { type RunningServer, seedTenant, startServer, tempDir } from '@waitlistkit/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiList, ORIGIN, publicPost, SECRET } from './helpers.js';

const dir = tempDir();
let servers: RunningServer[];
beforeAll(async () => {
  const env = { WAITLIST_SECRET: SECRET, WAITLIST_KEY_RATE_LIMIT: '5' };
  servers = await Promise.all([0, 1, 2].map(() => startServer({ db: dir.db, env })));
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  dir.cleanup();
});

const at = (i: number) => servers[i % servers.length] as RunningServer;

describe('three servers on one PostgreSQL database', () => {
  it('count the per-IP limit of public sign-ups together: four in a minute, then 429 on every one', async () => {
    const t = await seedTenant(dir.db, { waitlist: ['--origins', ORIGIN, '--ip-limit', '4'] });
    const statuses: number[] = [];
    for (let i = 0; i < 9; i++) {
      statuses.push((await publicPost(at(i), t.waitlistId, { email: `t${i}@example.com` })).status);
    }
    expect(statuses).toEqual([202, 202, 202, 202, 429, 429, 429, 429, 429]);
  });

  it("count an API key's budget together: five requests, then 429 on every one", async () => {
    const t = await seedTenant(dir.db);
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await apiList(at(i), t.key, t.waitlistId)).status);
    expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
    expect(statuses.slice(5)).toEqual([429, 429, 429]);
  });
});
