import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cli, seedTenant, startServer, tempDir } from '@waitlistkit/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCreate, apiList, Browser, type Harness, harness, ORIGIN, publicPost } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(() => h.close());

describe('health and the OpenAPI document', () => {
  it('answers /healthz with {"status":"ok"}', async () => {
    const res = await fetch(`${h.server.url}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  it('serves the protocol package’s openapi.json at /v1/openapi.json', async () => {
    const file = createRequire(import.meta.url).resolve('@waitlistkit/protocol/openapi.json');
    const res = await fetch(`${h.server.url}/v1/openapi.json`);
    expect(await res.json()).toEqual(JSON.parse(readFileSync(file, 'utf8')));
  });

  it('answers unknown API paths with a JSON 404 and other paths with an HTML 404', async () => {
    const api = await fetch(`${h.server.url}/v1/api/nothing`);
    expect(api.status).toBe(404);
    expect((await api.json()).error.code).toBe('not_found');
    const put = await fetch(`${h.server.url}/v1/api/waitlists/wl_x/subscribers`, { method: 'PUT' });
    expect(put.status).toBe(404);
    const page = await fetch(`${h.server.url}/nothing`);
    expect(page.status).toBe(404);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
  });
});

describe('request logs', () => {
  it('are JSON lines that never hold a key value, a capability in a path, or a full email address', async () => {
    const t = await h.tenant({ waitlist: ['--referrals', 'on', '--origins', ORIGIN] });
    const email = 'Private.Person@Secret-Domain.example';
    const accepted = (await (await publicPost(h.server, t.waitlistId, { email })).json()) as {
      status_token: string;
    };
    await apiCreate(h.server, t.key, t.waitlistId, { email: 'other.person@secret-domain.example' });
    await apiList(h.server, t.key, t.waitlistId, `?q=${encodeURIComponent(email)}`);
    await apiList(h.server, `${t.key}x`, t.waitlistId);
    // A key created in the dashboard is shown once behind a one-time link.
    const b = new Browser(h.server.url);
    await b.signIn(`admin-${t.tenantId}@test.example`);
    const keys = await b.get('/dashboard/keys');
    const created = await b.post('/dashboard/keys', {
      name: 'Logged',
      preset: 'full',
      _csrf: Browser.csrf(keys.html),
    });
    const revealPath = created.res.headers.get('location') as string;
    expect(revealPath).toMatch(/^\/dashboard\/keys\/created\/[\w-]{16,}$/);
    const revealed = await b.get(revealPath);
    const dashboardKey = revealed.html.match(/wlk_live_\w+/)?.[0] as string;
    expect(dashboardKey).toBeDefined();

    // Every path segment that carries a secret, asked for as written and in other letter cases.
    const secretPaths: [string, string][] = [
      [`/s/${accepted.status_token}`, accepted.status_token],
      [`/S/${accepted.status_token}`, accepted.status_token],
      [`/s/${accepted.status_token}?ref=${encodeURIComponent(email)}`, accepted.status_token],
      [revealPath, revealPath.split('/').pop() as string],
      [revealPath.replace('/keys/created/', '/KEYS/Created/'), revealPath.split('/').pop() as string],
    ];
    for (const [path] of secretPaths) await b.get(path);
    await new Promise((resolve) => setTimeout(resolve, 50)); // let the last lines reach the pipe
    const lines = h.server.output().trim().split('\n');
    const requests = lines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'request');
    expect(requests.length).toBeGreaterThanOrEqual(10);
    expect(requests.some((r) => r.path === '/s/:token')).toBe(true);
    expect(requests.some((r) => r.path === '/dashboard/keys/created/:reveal')).toBe(true);
    const all = h.server.output().toLowerCase();
    const secrets = [
      t.key,
      dashboardKey,
      email,
      'private.person',
      'other.person@',
      ...secretPaths.map(([, s]) => s),
    ];
    for (const secret of secrets) expect(all).not.toContain(secret.toLowerCase());
  });
});

describe('shutdown', () => {
  it('closes cleanly on SIGTERM: requests in flight are answered, the exit code is 0', async () => {
    const dir = tempDir();
    try {
      const t = await seedTenant(dir.db, { waitlist: ['--origins', ORIGIN] });
      const server = await startServer({ db: dir.db });
      // A request whose body is still arriving when the signal comes.
      const { request } = await import('node:http');
      const answer = new Promise<number>((resolve, reject) => {
        const req = request(`${server.url}/v1/public/waitlists/${t.waitlistId}/subscribers`, {
          method: 'POST',
          headers: { Origin: ORIGIN, 'Content-Type': 'application/json' },
        });
        req.on('response', (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', reject);
        req.write('{"email":');
        setTimeout(() => {
          server.child.kill('SIGTERM');
          setTimeout(() => req.end('"late@example.com"}'), 300);
        }, 100);
      });
      expect(await answer).toBe(202);
      // A second SIGTERM during the shutdown changes nothing.
      const exit = await server.stop();
      expect(exit).toEqual({ code: 0, signal: null });
      expect(server.output()).toMatch(/"msg":"stopping"[\s\S]*"status":202[\s\S]*"msg":"stopped"/);
      // The signup answered during the shutdown was committed.
      const after = await startServer({ db: dir.db });
      const list = await apiList(after, t.key, t.waitlistId);
      expect((await list.json()).items.map((s: { email: string }) => s.email)).toEqual(['late@example.com']);
      await after.stop();
    } finally {
      dir.cleanup();
    }
  });
});

describe('the README’s first command: serve --demo', () => {
  it('seeds an empty database once, prints working credentials, and serves the demo page', async () => {
    const dir = tempDir();
    try {
      const server = await startServer({ db: dir.db, args: ['--demo'] });
      const out = server.output();
      const key = out.match(/API key\s+(wlk_live_\w+)/)?.[1] as string;
      const waitlistId = out.match(/waitlist\s+(wl_\w+)/)?.[1] as string;
      expect(out).toMatch(/sign in as admin@demo\.example \/ \w{20}/);
      expect((await apiList(server, key, waitlistId)).status).toBe(200);
      const page = await fetch(`${server.url}/`);
      const html = await page.text();
      expect(html).toContain(waitlistId);
      // The page signs up through the public endpoint from its own origin.
      const origin = new URL(server.url).origin;
      const signup = await fetch(`${server.url}/v1/public/waitlists/${waitlistId}/subscribers`, {
        method: 'POST',
        headers: { Origin: origin, 'Content-Type': 'application/json' },
        body: JSON.stringify({ email: 'visitor@example.com' }),
      });
      // The demo's gates are on: a bare sign-up is asked to pass them, and /gates offers both
      // (the widget passes them while the visitor types: demo-browser.test.ts).
      expect(signup.status).toBe(428);
      const gates = await fetch(`${server.url}/v1/public/waitlists/${waitlistId}/gates`, {
        method: 'POST',
        headers: { Origin: origin, 'Content-Type': 'application/json' },
        body: '{}',
      });
      expect(Object.keys(await gates.json()).sort()).toEqual(['challenge', 'pow']);
      await server.stop();

      const again = await startServer({ db: dir.db, args: ['--demo'] });
      expect(again.output()).not.toContain('API key');
      const demo = await fetch(`${again.url}/`);
      expect(await demo.text()).toContain(waitlistId);
      // A new port is a new origin: the demo waitlist allowlists it.
      const res = await fetch(`${again.url}/v1/public/waitlists/${waitlistId}/subscribers`, {
        method: 'POST',
        headers: { Origin: new URL(again.url).origin, 'Content-Type': 'application/json' },
        body: JSON.stringify({ email: 'visitor2@example.com' }),
      });
      // 428 (pass the gates), not 404: the origin is past the allowlist.
      expect(res.status).toBe(428);
      await again.stop();

      // A third start on yet another port: the allowlist holds the current origin only.
      const third = await startServer({ db: dir.db, args: ['--demo'] });
      const shown = await cli<{ origins: string[] }>(['waitlist', 'update', '--waitlist', waitlistId], {
        db: dir.db,
      });
      expect(shown.origins).toEqual([new URL(third.url).origin]);
      await third.stop();
    } finally {
      dir.cleanup();
    }
  });
});
