/**
 * Messages (docs/messages.md), end to end on either store: saved with the command line, queued by
 * their causes (sign-up, confirmation, admission by every door, a referral's credit), sent through
 * a real SMTP server on loopback and parsed with mailparser, headers included; the unsubscribe
 * link's page and one-click POST; nothing sent that should not be.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  cli,
  type ReceivedMail,
  type SmtpServer,
  startSmtpServer,
  type Tenant,
  tempDir,
} from '@waitlistkit/testkit';

type ParsedMail = ReceivedMail['parsed'];

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from './database.js';
import { Browser, type Harness, harness, ORIGIN, publicPost, until } from './helpers.js';

const ACCESS = 'https://app.launch.example/in';

let smtp: SmtpServer;
let h: Harness;
let t: Tenant;
const files = tempDir();

beforeAll(async () => {
  smtp = await startSmtpServer();
  h = await harness({ WAITLIST_SMTP_URL: smtp.url, WAITLIST_MAIL_FROM: 'Launch <waitlist@launch.example>' });
  t = await h.tenant({ waitlist: ['--referrals', 'on', '--origins', ORIGIN, '--access-url', ACCESS] });
  await setMessage(
    t,
    'welcome',
    'Welcome to {{waitlist_name}}',
    'Hi {{email}}, you are number {{position}}.',
  );
  await setMessage(t, 'admitted', "You're in, {{email}}", 'Come in: {{access_url}}');
  await setMessage(
    t,
    'referral',
    '{{referral_count}} joined through you',
    'Thanks! {{referral_count}} so far.',
  );
});
afterAll(async () => {
  await h.close();
  await smtp.close();
  files.cleanup();
});

async function setMessage(tenant: Tenant, kind: string, subject: string, body: string, on = '--on') {
  const file = join(files.dir, `${kind}-${Math.random().toString(36).slice(2)}.txt`);
  writeFileSync(file, body);
  const args = ['--operator', tenant.operatorId, '--waitlist', tenant.waitlistId, '--kind', kind];
  return h.cli(['message', 'set', ...args, '--subject', subject, '--body-file', file, on]);
}

const mailsTo = (to: string) => smtp.mails.filter((m) => m.to.includes(to)).map((m) => m.parsed);
const mailTo = (to: string, subject: RegExp) =>
  until(`a mail to ${to} with ${subject}`, () => mailsTo(to).find((m) => subject.test(m.subject ?? '')));

const header = (mail: ParsedMail, name: string) =>
  mail.headerLines.find((l) => l.key === name)?.line.replace(/^[^:]+:\s*/, '');

async function signUp(email: string, ref?: string) {
  const res = await publicPost(h.server, t.waitlistId, ref ? { email, referral_code: ref } : { email });
  expect(res.status).toBe(202);
  return (await res.json()) as { status_token: string; referral_code: string };
}

async function idOf(email: string): Promise<string> {
  const rows = await sql<{ id: string }>(h.db, 'SELECT id FROM subscribers WHERE email = ?', [email]);
  return rows[0]?.id as string;
}

const pendingMail = async (id: string, kind: string) =>
  sql<{ next_at: number }>(
    h.db,
    "SELECT next_at FROM deliveries WHERE subscriber_id = ? AND event_type = ? AND state = 'pending'",
    [id, kind],
  );

describe('the welcome mail', () => {
  it('goes at a fresh sign-up, filled, in text and HTML, with the one-click unsubscribe headers', async () => {
    const { status_token } = await signUp('ada@example.com');
    const mail = await mailTo('ada@example.com', /^Welcome/);
    expect(mail.subject).toBe('Welcome to Launch');
    expect(mail.text).toContain('Hi ada@example.com, you are number 1.');
    const link = `${h.server.url}/s/${status_token}/unsubscribe`;
    expect(mail.text).toContain(`To stop these emails: ${link}`);
    expect(String(mail.html)).toContain('<p>Hi ada@example.com, you are number 1.</p>');
    expect(header(mail, 'list-unsubscribe')).toBe(`<${link}>`);
    expect(header(mail, 'list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
  });

  it('escapes HTML a value or the text holds in the HTML part', async () => {
    const other = await h.tenant({ waitlist: ['--origins', ORIGIN] });
    await h.cli(['waitlist', 'update', '--waitlist', other.waitlistId, '--name', '<i>Launch</i>']);
    await setMessage(other, 'welcome', 'Hello <b>', 'Welcome to {{waitlist_name}} <script>alert(1)</script>');
    const res = await publicPost(h.server, other.waitlistId, { email: 'esc@example.com' });
    expect(res.status).toBe(202);
    const mail = await until('the welcome mail', () =>
      smtp.mails.find((m) => m.parsed.subject === 'Hello <b>'),
    );
    expect(mail.parsed.text).toContain('Welcome to <i>Launch</i> <script>alert(1)</script>');
    expect(String(mail.parsed.html)).toContain(
      'Welcome to &lt;i&gt;Launch&lt;/i&gt; &lt;script&gt;alert(1)&lt;/script&gt;',
    );
    expect(String(mail.parsed.html)).not.toContain('<script>');
    expect(String(mail.parsed.html)).not.toContain('<i>');
  });

  it('waits for the confirmation on a waitlist that confirms', async () => {
    const other = await h.tenant({ waitlist: ['--origins', ORIGIN, '--confirm-email', 'on'] });
    await setMessage(other, 'welcome', 'Confirmed welcome', 'Glad you are here.');
    const res = await publicPost(h.server, other.waitlistId, { email: 'conf@example.com' });
    expect(res.status).toBe(202);
    const confirmation = await mailTo('conf@example.com', /^Confirm your email/);
    expect(mailsTo('conf@example.com').some((m) => m.subject === 'Confirmed welcome')).toBe(false);
    expect(await pendingMail(await idOf('conf@example.com'), 'welcome')).toEqual([]);
    const url = (confirmation.text ?? '').match(/http:\/\/\S+\/c\/\S+/)?.[0] as string;
    expect((await fetch(url, { method: 'POST', redirect: 'manual' })).status).toBe(303);
    await mailTo('conf@example.com', /^Confirmed welcome$/);
  });

  it('is not queued while the message is off', async () => {
    const other = await h.tenant({ waitlist: ['--origins', ORIGIN] });
    await setMessage(other, 'welcome', 'Never sent', 'Body', '--off');
    await publicPost(h.server, other.waitlistId, { email: 'off@example.com' });
    expect(await pendingMail(await idOf('off@example.com'), 'welcome')).toEqual([]);
    const rows = await sql<{ n: number }>(
      h.db,
      "SELECT count(*) AS n FROM deliveries WHERE subscriber_id = ? AND event_type = 'welcome'",
      [await idOf('off@example.com')],
    );
    expect(Number(rows[0]?.n)).toBe(0);
  });
});

describe('the admitted mail', () => {
  it('goes with the access URL whether the API admits by ids or by count, or the command line admits', async () => {
    await signUp('ids@example.com');
    await signUp('count@example.com');
    await signUp('cli@example.com');
    const admit = (body: unknown) =>
      fetch(`${h.server.url}/v1/api/waitlists/${t.waitlistId}/admissions`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${t.key}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect((await admit({ subscriber_ids: [await idOf('ids@example.com')] })).status).toBe(200);
    const byIds = await mailTo('ids@example.com', /^You're in/);
    expect(byIds.text).toContain(`Come in: ${ACCESS}`);
    expect(String(byIds.html)).toContain(`<a href="${ACCESS}">`);
    expect(header(byIds, 'list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    // The admitted mail does not offer to stop mail: it is the one people signed up for.
    expect(byIds.text).not.toContain('To stop these emails');

    await h.cli([
      'subscriber',
      'admit',
      '--operator',
      t.operatorId,
      '--waitlist',
      t.waitlistId,
      '--ids',
      await idOf('cli@example.com'),
    ]);
    await mailTo('cli@example.com', /^You're in/);
    // The first of the line now (ada, from above) and then count@.
    expect((await admit({ count: 2 })).status).toBe(200);
    await mailTo('count@example.com', /^You're in/);
  });
});

describe('the admitted mail and subscriber.admitted', () => {
  it('go together from the dashboard too: one event and one mail for each person let in', async () => {
    const u = await h.tenant({ waitlist: ['--origins', ORIGIN, '--access-url', ACCESS] });
    await setMessage(u, 'admitted', "You're in, {{email}}", 'Come in: {{access_url}}');
    // Events are recorded for tenants with an endpoint; nothing listens there, nothing needs to.
    await cli(['webhook', 'create', '--operator', u.operatorId, '--url', 'http://127.0.0.1:9/in'], {
      db: h.db,
      env: { WAITLIST_WEBHOOK_ALLOW_PRIVATE: '1' },
    });
    expect((await publicPost(h.server, u.waitlistId, { email: 'dash@example.com' })).status).toBe(202);
    const id = await idOf('dash@example.com');
    const b = new Browser(h.server.url);
    await b.signIn(`admin-${u.tenantId}@test.example`);
    const base = `/dashboard/waitlists/${u.waitlistId}/subscribers/${id}`;
    const admitted = await b.post(`${base}/admit`, { _csrf: Browser.csrf((await b.get(base)).html) });
    expect(admitted.res.headers.get('location')).toBe(`${base}?admitted=1`);
    const mail = await mailTo('dash@example.com', /^You're in/);
    expect(mail.text).toContain(`Come in: ${ACCESS}`);
    // Written by the admission's transaction: the event and the mail, each once.
    const written = async () =>
      (
        await sql<{ kind: string }>(
          h.db,
          `SELECT 'event' AS kind FROM events WHERE type = 'subscriber.admitted' AND subject_id = ?
           UNION ALL SELECT 'mail' FROM deliveries WHERE event_type = 'admitted' AND subscriber_id = ?`,
          [id, id],
        )
      )
        .map((w) => w.kind)
        .sort();
    expect(await written()).toEqual(['event', 'mail']);
    // Admitting again lets no one in: no second event, no second mail.
    const again = await b.post(`${base}/admit`, { _csrf: Browser.csrf((await b.get(base)).html) });
    expect(again.res.headers.get('location')).toBe(base);
    expect(await written()).toEqual(['event', 'mail']);
  });
});

describe('the referral mail', () => {
  it('goes to the referrer after a credit, and folds the credits of the next hour into one', async () => {
    const referrer = await signUp('ref@example.com');
    await signUp('friend1@example.com', referrer.referral_code);
    const first = await mailTo('ref@example.com', /joined through you$/);
    expect(first.subject).toBe('1 joined through you');
    await signUp('friend2@example.com', referrer.referral_code);
    await signUp('friend3@example.com', referrer.referral_code);
    const id = await idOf('ref@example.com');
    const pending = await until(
      'the folded referral mail',
      async () => (await pendingMail(id, 'referral'))[0],
    );
    // Due an hour after the first went: one mail, not one per credit.
    expect(pending.next_at).toBeGreaterThan(Date.now() + 59 * 60_000);
    expect(await pendingMail(id, 'referral')).toHaveLength(1);
    expect(
      mailsTo('ref@example.com').filter((m) => /joined through you$/.test(m.subject ?? '')),
    ).toHaveLength(1);
  });
});

describe('an import without --send-events', () => {
  it('queues no mail of its own and keeps a referral mail already waiting from sign-ups', async () => {
    const waiting = await signUp('waiting-ref@example.com');
    await signUp('w-friend1@example.com', waiting.referral_code);
    // Sent and recorded as sent: a credit now waits for the hour instead of joining this mail.
    await until(
      'the first referral mail sent',
      async () =>
        (
          await sql(
            h.db,
            "SELECT id FROM deliveries WHERE subscriber_id = ? AND event_type = 'referral' AND state = 'delivered'",
            [await idOf('waiting-ref@example.com')],
          )
        ).length === 1,
    );
    // A second credit within the hour: its mail waits, folded, for the hour to pass.
    await signUp('w-friend2@example.com', waiting.referral_code);
    const waitingId = await idOf('waiting-ref@example.com');
    const [before] = await until('the waiting referral mail', async () =>
      sql<{ id: string }>(
        h.db,
        "SELECT id FROM deliveries WHERE subscriber_id = ? AND event_type = 'referral' AND state = 'pending'",
        [waitingId],
      ).then((rows) => (rows.length ? rows : undefined)),
    );
    await signUp('quiet-ref@example.com');
    const file = join(files.dir, 'moved.csv');
    writeFileSync(
      file,
      'email,referred_by\nmoved1@example.com,waiting-ref@example.com\nmoved2@example.com,quiet-ref@example.com\n',
    );
    const args = ['--operator', t.operatorId, '--waitlist', t.waitlistId, '--file', file];
    expect(await h.cli(['subscriber', 'import', ...args])).toMatchObject({ imported: 2, credited: 2 });
    // The credit folded into the mail that was waiting: the same row, still one.
    expect(
      await sql<{ id: string }>(
        h.db,
        "SELECT id FROM deliveries WHERE subscriber_id = ? AND event_type = 'referral' AND state = 'pending'",
        [waitingId],
      ),
    ).toEqual([before]);
    // No referral mail for a credit the import alone gave, no mail at all for the moved rows
    // (quiet-ref's own welcome, from its sign-up, may be on its way).
    expect(
      await sql(h.db, "SELECT id FROM deliveries WHERE subscriber_id = ? AND event_type = 'referral'", [
        await idOf('quiet-ref@example.com'),
      ]),
    ).toEqual([]);
    for (const email of ['moved1@example.com', 'moved2@example.com'])
      expect(
        await sql(
          h.db,
          "SELECT id FROM deliveries WHERE subscriber_id = ? AND event_type IN ('welcome', 'referral')",
          [await idOf(email)],
        ),
      ).toEqual([]);
  });
});

describe('unsubscribing', () => {
  it('shows a page with a button that works without JavaScript; opening it changes nothing', async () => {
    const { status_token } = await signUp('page@example.com');
    const url = `${h.server.url}/s/${status_token}/unsubscribe`;
    const page = await fetch(url);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('<form method="post">');
    expect(html).not.toContain('<script');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    const rows = await sql<{ u: number | null }>(
      h.db,
      'SELECT unsubscribed_us AS u FROM subscribers WHERE email = ?',
      ['page@example.com'],
    );
    expect(rows[0]?.u).toBeNull();
  });

  it('takes a one-click POST, answers the same when reused, and stops welcome and referral but not admitted', async () => {
    const { status_token, referral_code } = await signUp('stop@example.com');
    await mailTo('stop@example.com', /^Welcome/);
    const url = `${h.server.url}/s/${status_token}/unsubscribe`;
    const oneClick = () =>
      fetch(url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: 'List-Unsubscribe=One-Click',
      });
    const first = await oneClick();
    expect(first.status).toBe(200);
    const again = await oneClick();
    expect(again.status).toBe(200);
    const main = (html: string) => html.slice(html.indexOf('<main>'));
    const answered = main(await again.text());
    expect(answered).toBe(main(await first.text()));
    expect(answered).toContain('You are unsubscribed');
    expect(await (await fetch(url)).text()).toContain('You are unsubscribed');
    const listed = await fetch(
      `${h.server.url}/v1/api/waitlists/${t.waitlistId}/subscribers?q=stop%40example.com`,
      {
        headers: { Authorization: `Bearer ${t.key}` },
      },
    );
    const items = ((await listed.json()) as { items: { email: string; unsubscribed: boolean }[] }).items;
    expect(items.find((s) => s.email === 'stop@example.com')?.unsubscribed).toBe(true);

    await signUp('stopfriend@example.com', referral_code);
    const id = await idOf('stop@example.com');
    expect(await pendingMail(id, 'referral')).toEqual([]);
    const admitted = await fetch(`${h.server.url}/v1/api/waitlists/${t.waitlistId}/admissions`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${t.key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ subscriber_ids: [id] }),
    });
    expect(admitted.status).toBe(200);
    await mailTo('stop@example.com', /^You're in/);
    expect(mailsTo('stop@example.com').filter((m) => /through you/.test(m.subject ?? ''))).toEqual([]);
  });

  it('answers a 404 page for a forged token and for an erased subscriber', async () => {
    const forged = await fetch(`${h.server.url}/s/not-a-token/unsubscribe`, { method: 'POST' });
    expect(forged.status).toBe(404);
    expect((await fetch(`${h.server.url}/s/not-a-token/unsubscribe`)).status).toBe(404);

    const { status_token } = await signUp('gone@example.com');
    await h.cli([
      'subscriber',
      'delete',
      '--operator',
      t.operatorId,
      '--waitlist',
      t.waitlistId,
      '--email',
      'gone@example.com',
    ]);
    const url = `${h.server.url}/s/${status_token}/unsubscribe`;
    expect((await fetch(url)).status).toBe(404);
    expect((await fetch(url, { method: 'POST' })).status).toBe(404);
  });
});
