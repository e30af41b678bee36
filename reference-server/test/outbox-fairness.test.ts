/**
 * The outbox's slots shared among tenants (domain/fair-share.ts), end to end: a real server, a
 * real SMTP server and real HTTP receivers on loopback. One tenant's eight endpoints hold every
 * request they get and have a backlog besides; another tenant's confirmation mail, and a third
 * tenant's webhook, still go out while those requests are held, not after they time out.
 */
import { cli, type SmtpServer, startSmtpServer } from '@waitlistkit/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from './database.js';
import { type Harness, harness, ORIGIN, publicPost, until } from './helpers.js';
import { receiver } from './webhook-receiver.js';

// A failed attempt is tried again an hour later: within the test, each delivery is attempted once.
const ENV = { WAITLIST_WEBHOOK_ALLOW_PRIVATE: '1', WAITLIST_WEBHOOK_RETRY_SCHEDULE: '3600' };

let smtp: SmtpServer;
let h: Harness;
beforeAll(async () => {
  smtp = await startSmtpServer();
  h = await harness({ ...ENV, WAITLIST_SMTP_URL: smtp.url, WAITLIST_MAIL_FROM: 'waitlist@launch.example' });
});
afterAll(async () => {
  await h.close();
  await smtp.close();
});

describe('sharing the outbox among tenants', () => {
  it("sends another tenant's mail and webhook while one tenant's eight endpoints hold every request", async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const slow = await receiver(async () => {
      await held;
      return 200;
    });
    const quick = await receiver(() => 200);
    try {
      const hook = (operatorId: string, url: string) =>
        cli(['webhook', 'create', '--operator', operatorId, '--url', url], { db: h.db, env: ENV });
      // Everyone set up first: once A's requests are held, the clock of their timeout runs.
      const a = await h.tenant({ waitlist: ['--origins', ORIGIN, '--ip-limit', '1000'] });
      for (let i = 0; i < 8; i++) await hook(a.operatorId, `${slow.url}/a${i}`);
      const b = await h.tenant({ waitlist: ['--origins', ORIGIN, '--confirm-email', 'on'] });
      const c = await h.tenant({ waitlist: ['--origins', ORIGIN] });
      await hook(c.operatorId, `${quick.url}/c`);

      // Six sign-ups: six deliveries to each endpoint, more than the endpoints may take at once.
      for (let i = 0; i < 6; i++)
        expect((await publicPost(h.server, a.waitlistId, { email: `a${i}@example.com` })).status).toBe(202);
      await until("tenant A's requests held", () => slow.received.length >= 16, 60_000);
      expect((await publicPost(h.server, b.waitlistId, { email: 'b@example.com' })).status).toBe(202);
      expect((await publicPost(h.server, c.waitlistId, { email: 'c@example.com' })).status).toBe(202);

      await until(
        "B's confirmation mail",
        () => smtp.mails.some((m) => m.to.includes('b@example.com')),
        60_000,
      );
      await until("C's delivery", () => quick.received.length > 0, 60_000);
      // Every attempt of A's is still under way: an attempt is recorded when it ends (a 15 s
      // timeout ends a held one), and none is.
      const [ended] = await sql<{ n: number }>(
        h.db,
        `SELECT count(*) AS n FROM delivery_attempts
          WHERE delivery_id IN (SELECT id FROM deliveries WHERE tenant_id = ?)`,
        [a.tenantId],
      );
      expect(ended?.n).toBe(0);
      expect(slow.received.length).toBeLessThan(48);

      // Let go, and A's backlog goes out in full.
      release();
      await until("all of A's deliveries", () => slow.received.length >= 48, 60_000);
    } finally {
      release();
      await slow.close();
      await quick.close();
    }
  }, 180_000);
});
