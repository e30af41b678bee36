/**
 * SQLite unable to write (issue 22, item 0): a real server on a real file whose disk fills up
 * (a file-size limit put on the running process from outside, as a quota does), and a file the
 * server may only read. Writes answer 503 with Retry-After and leave nothing half-written, reads
 * still answer, the server stays up, logs the outage once and its end once, and writes again
 * when the condition ends, with no restart. SQLite only (vitest.postgres.config.ts).
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, closeSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunningServer, startServer, type Tenant } from '@waitlistkit/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { sql } from './database.js';
import { type Harness, harness, ORIGIN, publicPost, SECRET, until } from './helpers.js';

const WAITLIST = ['--origins', ORIGIN, '--ip-limit', '1000000', '--referrals', 'on'];

const lines = (s: RunningServer, msg: string) =>
  s
    .output()
    .split('\n')
    .filter((line) => line.includes(`"msg":"${msg}"`));

const count = async (db: string) =>
  (await sql<{ n: number }>(db, 'SELECT count(*) AS n FROM subscribers'))[0]?.n as number;

/** `prlimit` on the server's process: the most bytes it may write into any file ('unlimited' lifts it). */
function limitFileSize(s: RunningServer, bytes: number | 'unlimited'): void {
  const run = spawnSync('prlimit', ['--pid', String(s.child.pid), `--fsize=${bytes}:unlimited`], {
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`prlimit failed: ${run.error?.message ?? run.stderr}`);
}

/** Sign-ups while the file cannot be written: 503 with Retry-After, nothing written. */
async function refusedWrites(s: RunningServer, t: Tenant, db: string, referralCode: string): Promise<void> {
  const before = await count(db);
  for (const body of [
    { email: 'fresh-1@example.com' },
    { email: 'fresh-2@example.com' },
    // A referral writes in a transaction of several statements (the row, the credit, its event).
    { email: 'referred@example.com', referral_code: referralCode },
  ]) {
    const res = await publicPost(s, t.waitlistId, body);
    expect(res.status).toBe(503);
    expect(res.headers.get('Retry-After')).toMatch(/^\d+$/);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('service_unavailable');
  }
  const concurrent = await Promise.all(
    Array.from({ length: 20 }, (_, i) => publicPost(s, t.waitlistId, { email: `many-${i}@example.com` })),
  );
  expect(concurrent.map((r) => r.status)).toEqual(concurrent.map(() => 503));
  expect(await count(db)).toBe(before);
  expect(s.child.exitCode).toBeNull();
  expect((await fetch(`${s.url}/healthz`)).status).toBe(503);
}

/** After the condition ends: /healthz back once the probe has written, then a sign-up is a row. */
async function writesAgain(s: RunningServer, t: Tenant, db: string): Promise<void> {
  await until('/healthz ok again', async () => (await fetch(`${s.url}/healthz`)).status === 200);
  const before = await count(db);
  const res = await publicPost(s, t.waitlistId, { email: 'after@example.com' });
  expect(res.status).toBe(202);
  expect(await count(db)).toBe(before + 1);
  expect(lines(s, 'database unavailable')).toHaveLength(1);
  expect(lines(s, 'database available again')).toHaveLength(1);
  expect(lines(s, 'request failed')).toEqual([]);
  expect(lines(s, 'public subscribe failed')).toEqual([]);
  expect(lines(s, 'outbox tick failed')).toEqual([]);
}

let h: Harness | undefined;
let other: RunningServer | undefined;
afterEach(async () => {
  await other?.stop();
  other = undefined;
  await h?.close();
  h = undefined;
});

describe.skipIf(process.platform !== 'linux')('SQLite that cannot write', () => {
  it('full disk (a file-size limit): 503 with Retry-After, nothing half-written, reads answer, 202 once there is room', async () => {
    h = await harness();
    const t = await h.tenant({ waitlist: WAITLIST });
    const first = await publicPost(h.server, t.waitlistId, { email: 'first@example.com' });
    expect(first.status).toBe(202);
    const { status_url, referral_code } = (await first.json()) as {
      status_url: string;
      referral_code: string;
    };

    // No write may go past the first byte of any file: every commit fails, as on a full disk.
    limitFileSize(h.server, 1);
    await refusedWrites(h.server, t, h.db, referral_code);
    // Reads need no room.
    expect((await fetch(status_url)).status).toBe(200);

    limitFileSize(h.server, 'unlimited');
    await writesAgain(h.server, t, h.db);
    const referred = await publicPost(h.server, t.waitlistId, {
      email: 'referred@example.com',
      referral_code,
    });
    expect(referred.status).toBe(202);
    expect(await sql(h.db, 'PRAGMA integrity_check')).toEqual([{ integrity_check: 'ok' }]);
  });

  it('read-only file: 503 with Retry-After, reads answer, 202 once it may be written again', async (ctx) => {
    const readOnly = readOnlyMethod();
    if (typeof readOnly === 'string') return ctx.skip(readOnly);
    h = await harness();
    const t = await h.tenant({ waitlist: WAITLIST });
    const first = await publicPost(h.server, t.waitlistId, { email: 'first@example.com' });
    const { status_url, referral_code } = (await first.json()) as {
      status_url: string;
      referral_code: string;
    };
    // The server that wrote it stops; one starts on the file as it is now: read-only.
    await h.server.stop();
    readOnly.set(h.db, true);
    try {
      other = await startServer({ db: h.db, env: { WAITLIST_SECRET: SECRET } });
      await refusedWrites(other, t, h.db, referral_code);
      expect((await fetch(status_url.replace(h.server.url, other.url))).status).toBe(200);
    } finally {
      readOnly.set(h.db, false);
    }
    await writesAgain(other, t, h.db);
  });
});

/**
 * How this test makes a file read-only for the server: its mode, which root ignores, so as root
 * the immutable attribute (chattr +i); a string says why neither can be done here.
 */
function readOnlyMethod(): { set(path: string, on: boolean): void } | string {
  if (process.getuid?.() !== 0) return { set: (path, on) => chmodSync(path, on ? 0o444 : 0o644) };
  const probe = join(tmpdir(), `waitlistkit-chattr-${process.pid}`);
  closeSync(openSync(probe, 'w'));
  const tried = spawnSync('chattr', ['+i', probe], { encoding: 'utf8' });
  spawnSync('chattr', ['-i', probe]);
  rmSync(probe, { force: true });
  if (tried.status !== 0)
    return `read-only file test skipped: running as root, and chattr +i fails here (${tried.error?.message ?? tried.stderr.trim()})`;
  return {
    set: (path, on) => {
      const run = spawnSync('chattr', [on ? '+i' : '-i', path], { encoding: 'utf8' });
      if (run.status !== 0) throw new Error(`chattr failed: ${run.stderr}`);
    },
  };
}
