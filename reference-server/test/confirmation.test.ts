/**
 * Email confirmation (docs/subscribers.md#email-confirmation), end to end: a real server, a real SMTP server on loopback
 * whose mail is parsed, the link's page in HTTP, referral credit deferred to the confirmation,
 * the `subscriber.confirmed` webhook, SMTP refusals, erasure, and a server without SMTP.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebhookEventSchema } from '@waitlistkit/protocol';
import {
  cli,
  type RunningServer,
  type SmtpServer,
  seedTenant,
  startServer,
  startSmtpServer,
  type Tenant,
  tempDir,
} from '@waitlistkit/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from './database.js';
import { type Harness, harness, ORIGIN, publicPost, until } from './helpers.js';

const FROM = 'Launch team <waitlist@launch.example>';
const SETTINGS = ['--confirm-email', 'on', '--referrals', 'on', '--origins', ORIGIN];

let smtp: SmtpServer;
let h: Harness;
let t: Tenant;
beforeAll(async () => {
  // A 451 for this address once: a temporary refusal is retried; a 550 is never retried.
  let deferred = false;
  smtp = await startSmtpServer({
    rcpt: (to) => {
      if (to === 'later@example.com' && !deferred) {
        deferred = true;
        return 451;
      }
      return to === 'nobody@example.com' ? 550 : undefined;
    },
  });
  h = await harness(
    {
      WAITLIST_SMTP_URL: smtp.url,
      WAITLIST_MAIL_FROM: FROM,
      WAITLIST_WEBHOOK_ALLOW_PRIVATE: '1',
      WAITLIST_WEBHOOK_RETRY_SCHEDULE: '0,0,0',
    },
    // Behind a proxy, so the button's throttle can be pressed from several addresses.
    ['--trust-proxy'],
  );
  t = await h.tenant({ waitlist: SETTINGS });
});
afterAll(async () => {
  await h.close();
  await smtp.close();
});

const mailTo = (to: string, nth = 1) =>
  until(`mail ${nth} to ${to}`, () => smtp.mails.filter((m) => m.to.includes(to))[nth - 1]);

function linkIn(text: string): { url: string; token: string } {
  const match = text.match(/(http:\/\/127\.0\.0\.1:\d+\/c\/([A-Za-z0-9_-]+))/);
  if (!match) throw new Error(`no confirmation link in:\n${text}`);
  return { url: match[1] as string, token: match[2] as string };
}

async function subscriber(server: RunningServer, key: string, waitlistId: string, email: string) {
  const res = await fetch(
    `${server.url}/v1/api/waitlists/${waitlistId}/subscribers?q=${encodeURIComponent(email)}`,
    { headers: { Authorization: `Bearer ${key}` } },
  );
  const body = (await res.json()) as {
    items: { id: string; email: string; confirmed: boolean; referral_count: number }[];
  };
  const found = body.items.find((s) => s.email === email);
  if (!found) throw new Error(`${email} not listed`);
  return found;
}

/** A mail delivery's body is exactly this, on either store. */
const mailBody = (id: string) => JSON.stringify({ subscriber_id: id });

const mailsQueuedFor = async (db: string, id: string) =>
  (
    await sql<{ n: number }>(db, "SELECT count(*) AS n FROM deliveries WHERE channel = 'mail' AND body = ?", [
      mailBody(id),
    ])
  )[0]?.n;

describe('the confirmation mail', () => {
  it('goes out on a fresh sign-up, with the link, the waitlist name and why; the 202 is unchanged', async () => {
    const res = await publicPost(h.server, t.waitlistId, { email: 'ada@example.com' });
    expect(res.status).toBe(202);
    const body = (await res.json()) as Record<string, string>;
    expect(Object.keys(body).sort()).toEqual(['referral_code', 'status', 'status_token', 'status_url']);
    // The widget's cue to say "check your inbox", readable across origins.
    expect(res.headers.get('waitlist-confirm-email')).toBe('on');
    expect(res.headers.get('access-control-expose-headers')).toContain('Waitlist-Confirm-Email');

    const mail = (await mailTo('ada@example.com')).parsed;
    expect(mail.from?.value).toEqual([{ address: 'waitlist@launch.example', name: 'Launch team' }]);
    expect(mail.subject).toBe('Confirm your email for Launch');
    expect(mail.headers.get('auto-submitted')).toBe('auto-generated');
    expect(mail.messageId).toMatch(/^<msg_[0-9a-f]+@launch\.example>$/);
    const text = mail.text ?? '';
    expect(text).toContain('signed up for the Launch waitlist with this email address');
    expect(text).toContain("If it wasn't you, ignore this email");
    const { url, token } = linkIn(text);
    expect(url).toBe(`${h.server.url}/c/${token}`);
    // At least 128 random bits, URL-safe.
    expect(token.length).toBeGreaterThanOrEqual(22);
    expect(String(mail.html)).toContain(`href="${url}"`);
    expect(String(mail.html)).toContain('<strong>Launch</strong>');
  });

  it('shows a page whose GET confirms nothing; only the button confirms, twice is harmless', async () => {
    await publicPost(h.server, t.waitlistId, { email: 'grace@example.com' });
    const { url } = linkIn((await mailTo('grace@example.com')).parsed.text ?? '');
    for (let i = 0; i < 3; i++) {
      const page = await fetch(url);
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).toContain('<form method="post">');
      expect(html).toContain('Confirm my email');
      expect(page.headers.get('referrer-policy')).toBe('no-referrer');
      expect(page.headers.get('cache-control')).toBe('no-store');
    }
    expect((await subscriber(h.server, t.key, t.waitlistId, 'grace@example.com')).confirmed).toBe(false);

    const pressed = await fetch(url, { method: 'POST', redirect: 'manual' });
    expect(pressed.status).toBe(303);
    expect(new URL(pressed.headers.get('location') as string, url).href).toBe(url);
    expect((await subscriber(h.server, t.key, t.waitlistId, 'grace@example.com')).confirmed).toBe(true);
    expect(await (await fetch(url)).text()).toContain('Your email is confirmed');

    const again = await fetch(url, { method: 'POST', redirect: 'manual' });
    expect(again.status).toBe(303);
    expect((await subscriber(h.server, t.key, t.waitlistId, 'grace@example.com')).confirmed).toBe(true);
  });

  it('answers an unknown or mangled token with a 404 page, and never logs a token', async () => {
    for (const path of ['/c/nope', `/c/${'x'.repeat(24)}`, '/c/%00', `/c/${'a'.repeat(5000)}`]) {
      expect((await fetch(`${h.server.url}${path}`)).status).toBe(404);
      expect((await fetch(`${h.server.url}${path}`, { method: 'POST' })).status).toBe(404);
    }
    await publicPost(h.server, t.waitlistId, { email: 'logged@example.com' });
    const { url, token } = linkIn((await mailTo('logged@example.com')).parsed.text ?? '');
    await fetch(url);
    await fetch(url.replace('/c/', '/C/'));
    await fetch(url, { method: 'POST', redirect: 'manual' });
    await until('the request lines', () => h.server.output().split('"path":"/c/:token"').length > 3);
    expect(h.server.output()).not.toContain(token);
  });

  it('credits a referral only once the referred address confirms, and says so by webhook', async () => {
    const received: string[] = [];
    const hook: Server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => {
        body += c;
      });
      req.on('end', () => {
        received.push(body);
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
    const tenant = await h.tenant({ waitlist: SETTINGS });
    await cli(
      [
        'webhook',
        'create',
        '--operator',
        tenant.operatorId,
        '--url',
        `http://127.0.0.1:${(hook.address() as AddressInfo).port}/`,
        '--events',
        'subscriber.confirmed,referral.credited',
      ],
      { db: h.db, env: { WAITLIST_WEBHOOK_ALLOW_PRIVATE: '1' } },
    );
    try {
      const referrer = (await (
        await publicPost(h.server, tenant.waitlistId, { email: 'referrer@example.com' })
      ).json()) as { referral_code: string };
      // A made-up address (nobody reads its mail) signs up with the code: the referrer earns nothing.
      for (const email of ['made-up-1@example.com', 'made-up-2@example.com', 'real-friend@example.com'])
        await publicPost(h.server, tenant.waitlistId, { email, referral_code: referrer.referral_code });
      const before = await subscriber(h.server, tenant.key, tenant.waitlistId, 'referrer@example.com');
      expect(before.referral_count).toBe(0);

      const { url } = linkIn((await mailTo('real-friend@example.com')).parsed.text ?? '');
      await fetch(url, { method: 'POST', redirect: 'manual' });
      await fetch(url, { method: 'POST', redirect: 'manual' });
      const after = await subscriber(h.server, tenant.key, tenant.waitlistId, 'referrer@example.com');
      expect(after.referral_count).toBe(1);

      const events = await until('both events', () => {
        const parsed = received.map((b) => WebhookEventSchema.parse(JSON.parse(b)));
        return parsed.length >= 2 ? parsed : undefined;
      });
      const friend = await subscriber(h.server, tenant.key, tenant.waitlistId, 'real-friend@example.com');
      expect(events.map((e) => e.type).sort()).toEqual(['referral.credited', 'subscriber.confirmed']);
      const confirmed = events.find((e) => e.type === 'subscriber.confirmed');
      expect(confirmed?.data).toMatchObject({
        id: friend.id,
        email: 'real-friend@example.com',
        confirmed: true,
      });
      const credited = events.find((e) => e.type === 'referral.credited');
      expect(credited?.data).toMatchObject({ subscriber_id: friend.id, referrer: { referral_count: 1 } });
    } finally {
      hook.closeAllConnections();
      hook.close();
    }
  });

  it('is mailed again on a re-sign-up only after ten minutes, and never once confirmed', async () => {
    const first = await publicPost(h.server, t.waitlistId, { email: 'twice@example.com' });
    const firstBody = await first.text();
    await mailTo('twice@example.com');
    const again = await publicPost(h.server, t.waitlistId, { email: 'twice@example.com' });
    expect(await again.text()).toBe(firstBody);
    expect(again.headers.get('waitlist-confirm-email')).toBe('on');
    const { id } = await subscriber(h.server, t.key, t.waitlistId, 'twice@example.com');
    // The mail is queued in the statement that answers the 202, so the count is final now.
    expect(await mailsQueuedFor(h.db, id)).toBe(1);
    // (The ten minutes themselves are tested on the store, with a clock: store-confirmation.test.ts.)
  });

  it('retries a temporary SMTP refusal and gives up at once on a permanent one', async () => {
    await publicPost(h.server, t.waitlistId, { email: 'later@example.com' });
    await publicPost(h.server, t.waitlistId, { email: 'nobody@example.com' });
    await mailTo('later@example.com');
    expect(smtp.refused.filter((r) => r.to === 'later@example.com').map((r) => r.code)).toEqual([451]);
    const nobody = await subscriber(h.server, t.key, t.waitlistId, 'nobody@example.com');
    const state = await until('nobody’s mail to fail', async () => {
      const [row] = await sql<{ state: string; attempts: number }>(
        h.db,
        "SELECT state, attempts FROM deliveries WHERE channel = 'mail' AND body = ?",
        [mailBody(nobody.id)],
      );
      return row?.state === 'failed' ? row : undefined;
    });
    expect(state.attempts).toBe(1);
    expect(smtp.refused.filter((r) => r.to === 'nobody@example.com').map((r) => r.code)).toEqual([550]);
  });

  it('is forgotten with an erased subscriber, and not sent', async () => {
    const res = await publicPost(h.server, t.waitlistId, { email: 'erased@example.com' });
    expect(res.status).toBe(202);
    const { id } = await subscriber(h.server, t.key, t.waitlistId, 'erased@example.com');
    const erased = await fetch(`${h.server.url}/v1/api/waitlists/${t.waitlistId}/subscribers/${id}`, {
      method: 'DELETE',
      headers: { Authorization: `Bearer ${t.key}` },
    });
    expect(erased.status).toBe(204);
    expect(await mailsQueuedFor(h.db, id)).toBe(0);
  });
});

describe('the confirmation button, throttled per client address', () => {
  it('answers 429 with Retry-After past 30 presses a minute from one /64, whatever the tokens; other clients still confirm', async () => {
    await publicPost(h.server, t.waitlistId, { email: 'probed@example.com' });
    const { url, token } = linkIn((await mailTo('probed@example.com')).parsed.text ?? '');
    const press = (path: string, ip: string) =>
      fetch(`${h.server.url}${path}`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'X-Forwarded-For': ip },
      });
    // Thirty guesses, each from another address of one /64: all unknown.
    const guesses: number[] = [];
    for (let i = 0; i < 30; i++)
      guesses.push(
        (await press(`/c/${`guess${i}`.padEnd(24, 'x')}`, `2001:db8:c0:1::${(i + 1).toString(16)}`)).status,
      );
    expect(guesses).toEqual(Array(30).fill(404));
    // The 31st press from that /64 is refused, the right token too, before it is looked up.
    const refused = await press(`/c/${token}`, '2001:db8:c0:1:ffff::1');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(61);
    expect(refused.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await refused.text()).toContain('Too many attempts');
    expect((await subscriber(h.server, t.key, t.waitlistId, 'probed@example.com')).confirmed).toBe(false);
    // Another /64 and an IPv4 client press on; the page itself is never throttled.
    expect((await press(`/c/${'nope'.padEnd(24, 'x')}`, '2001:db8:c0:2::1')).status).toBe(404);
    expect((await fetch(url, { headers: { 'X-Forwarded-For': '2001:db8:c0:1::1' } })).status).toBe(200);
    const pressed = await press(`/c/${token}`, '198.51.100.31');
    expect(pressed.status).toBe(303);
    expect((await subscriber(h.server, t.key, t.waitlistId, 'probed@example.com')).confirmed).toBe(true);
  });
});

describe('a server without SMTP', () => {
  it('keeps confirmation mail waiting, says so, and a server with SMTP sends it later', async () => {
    const dir = tempDir();
    const outbox = await startSmtpServer();
    try {
      const env = { WAITLIST_SECRET: 'test-secret-0123456789abcdef' };
      let server = await startServer({ db: dir.db, env });
      const tenant = await seedTenant(dir.db, { waitlist: SETTINGS });
      expect((await publicPost(server, tenant.waitlistId, { email: 'patient@example.com' })).status).toBe(
        202,
      );
      await until('the warning', () => server.output().includes('confirmation mail is waiting'));
      expect(server.output()).toContain('"waiting":1');
      const [row] = await sql<{ state: string; attempts: number }>(
        dir.db,
        "SELECT state, attempts FROM deliveries WHERE channel = 'mail'",
      );
      expect(row).toEqual({ state: 'pending', attempts: 0 });
      await server.stop();

      server = await startServer({
        db: dir.db,
        env: { ...env, WAITLIST_SMTP_URL: outbox.url, WAITLIST_MAIL_FROM: 'waitlist@launch.example' },
      });
      const mail = await until('the late mail', () => outbox.mails[0]);
      expect(mail.to).toEqual(['patient@example.com']);
      expect(linkIn(mail.parsed.text ?? '').url.startsWith(server.url)).toBe(true);
      await server.stop();
    } finally {
      await outbox.close();
      dir.cleanup();
    }
  });

  it('refuses to start with an SMTP URL that cannot work or without a sender', async () => {
    const dir = tempDir();
    try {
      for (const [env, message] of [
        [{ WAITLIST_SMTP_URL: 'http://mail.example' }, /smtp:\/\/ or smtps:\/\//],
        [{ WAITLIST_SMTP_URL: 'not a url' }, /not a URL/],
        [{ WAITLIST_SMTP_URL: 'smtp://127.0.0.1:25' }, /WAITLIST_MAIL_FROM is required/],
        [
          { WAITLIST_SMTP_URL: 'smtp://127.0.0.1:25', WAITLIST_MAIL_FROM: 'no at sign' },
          /must be an address/,
        ],
        [
          { WAITLIST_SMTP_URL: 'smtp://127.0.0.1:25', WAITLIST_MAIL_FROM: 'a@b.example\r\nBcc: x@y.example' },
          /must be an address/,
        ],
      ] as const) {
        const started = startServer({ db: dir.db, env });
        await expect(started).rejects.toThrow(message);
      }
    } finally {
      dir.cleanup();
    }
  });
});
