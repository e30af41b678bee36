import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startServer, tempDir } from '@waitlistkit/testkit';
import { expect, it } from 'vitest';

it('runs against the demo server and prints a page of subscribers', async () => {
  const dir = tempDir();
  const server = await startServer({ db: dir.db, args: ['--demo'] });
  try {
    const key = server.output().match(/API key\s+(wlk_live_\w+)/)?.[1];
    const waitlistId = server.output().match(/waitlist\s+(wl_\w+)/)?.[1];
    expect(key && waitlistId).toBeTruthy();
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [fileURLToPath(new URL('../index.mjs', import.meta.url))],
      {
        env: {
          ...process.env,
          WAITLIST_API_KEY: key,
          WAITLIST_ID: waitlistId,
          WAITLIST_BASE_URL: server.url,
        },
      },
    );
    expect(stdout).toMatch(/^Signed up; referral code \w{6}\./m);
    expect(stdout).toContain('Page 1 of the waitlist (1 subscribers):');
    expect(stdout).toMatch(/#1\s+backend-example@example\.com\s+referrals: 0/);
    expect(stdout).toMatch(/Requests left this minute: 58\/60/);
  } finally {
    await server.stop();
    dir.cleanup();
  }
});
