import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { seedTenant, startServer, tempDir } from '@waitlistkit/testkit';
import { expect, it } from 'vitest';

it('signs up through Challenge and Proof of Work from Node, headless', async () => {
  const dir = tempDir();
  const origin = 'https://landing.example';
  const t = await seedTenant(dir.db, {
    waitlist: [
      '--referrals',
      'on',
      '--origins',
      origin,
      '--challenge',
      'on',
      '--challenge-min-age-ms',
      '200',
      '--pow',
      'on',
      '--pow-difficulty',
      '14',
    ],
  });
  const server = await startServer({ db: dir.db });
  try {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [fileURLToPath(new URL('../index.mjs', import.meta.url))],
      {
        env: {
          ...process.env,
          WAITLIST_ID: t.waitlistId,
          EMAIL: 'headless@example.com',
          WAITLIST_BASE_URL: server.url,
          ORIGIN: origin,
        },
      },
    );
    expect(stdout).toMatch(/^challenge: waiting \d+ ms$/m);
    expect(stdout).toContain('proof of work: difficulty 14, about 16384 hashes');
    expect(stdout).toMatch(/^accepted in \d+ ms$/m);
    expect(stdout).toMatch(/^referral code: [23456789A-HJ-NP-Z]{6}$/m);
    expect(stdout).toMatch(new RegExp(`^status page: ${server.url}/s/[\\w-]{24}$`, 'm'));
  } finally {
    await server.stop();
    dir.cleanup();
  }
});
