/**
 * The dashboard's webhook pages over plain HTTP (docs/webhooks.md#webhooks): real servers on real SQLite
 * files, a real receiver on loopback. The secret is shown once and signs real deliveries;
 * members look but cannot change anything; bad input comes back on the form as typed; an
 * organisation has at most 20; "Send again" makes another attempt; another tenant's endpoints and
 * deliveries do not exist.
 */
import type { Tenant } from '@waitlistkit/testkit';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addOperator,
  Browser,
  type Harness,
  harness,
  ORIGIN,
  PASSWORD,
  publicPost,
  until,
} from './helpers.js';
import { deliveriesUntil, receiver } from './webhook-receiver.js';

// Private destinations allowed, so the receiver can be on loopback; a failed attempt is tried
// again an hour later, so within a test only "Send again" makes a second one.
let h: Harness;
// The rules of a real deployment: https to public addresses only.
let strict: Harness;
// One receiver for the file; each test's endpoint has a path of its own. Paths in `failing`
// answer 500.
let r: Awaited<ReturnType<typeof receiver>>;
const failing = new Set<string>();
const at = (path: string) => r.received.filter((x) => x.path === path);

beforeAll(async () => {
  [h, strict, r] = await Promise.all([
    harness({ WAITLIST_WEBHOOK_ALLOW_PRIVATE: '1', WAITLIST_WEBHOOK_RETRY_SCHEDULE: '3600' }),
    harness(),
    receiver((x) => (failing.has(x.path) ? 500 : 200)),
  ]);
});
afterAll(() => Promise.all([h.close(), strict.close(), r.close()]));

/** The words of a page's main part, as one line; a time's closing tag leaves a space before a colon. */
const text = (html: string) =>
  (html.match(/<main[^>]*>([\s\S]*)<\/main>/)?.[1] ?? html)
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .replaceAll(' :', ':');

async function signedIn(server: Harness, email: string): Promise<Browser> {
  const b = new Browser(server.server.url);
  expect((await b.signIn(email)).res.status).toBe(303);
  return b;
}

const adminOf = (t: Tenant, server = h) => signedIn(server, `admin-${t.tenantId}@test.example`);

/** Posts the create form with the list page's token; `events` are the boxes checked. */
async function submit(b: Browser, url: string, events: string[] = [], waitlist = '') {
  const token = Browser.csrf((await b.get('/dashboard/webhooks')).html);
  return b.post('/dashboard/webhooks', [
    ['_csrf', token],
    ['url', url],
    ...events.map((e): [string, string] => ['events', e]),
    ['waitlist', waitlist],
  ]);
}

/** An endpoint added through the form: its id, its secret (from the one page that shows it), that page. */
async function addEndpoint(b: Browser, url: string, events: string[] = [], waitlist = '') {
  const created = await submit(b, url, events, waitlist);
  expect(created.res.status).toBe(303);
  const reveal = created.res.headers.get('location') as string;
  expect(reveal).toMatch(/^\/dashboard\/webhooks\/created\/[\w-]+$/);
  const shown = await b.get(reveal);
  expect(shown.res.status).toBe(200);
  return {
    id: shown.html.match(/href="\/dashboard\/webhooks\/(wh_\w+)"/)?.[1] as string,
    secret: shown.html.match(/value="(whsec_[^"]+)"/)?.[1] as string,
    reveal,
    shown,
  };
}

const deliveryIds = (html: string) => [...html.matchAll(/\/deliveries\/(dlv_\w+)\/resend/g)].map((m) => m[1]);

/** The endpoint's page, read again until `done` holds (the worker delivers in its own time). */
const pageUntil = (b: Browser, id: string, done: (pageText: string) => boolean) =>
  deliveriesUntil(
    () => b.get(`/dashboard/webhooks/${id}`),
    (page) => done(text(page.html)),
  );

/** A tenant whose admin added an endpoint at `path` through the form, and one sign-up delivered there. */
async function deliveredOnce(path: string) {
  const t = await h.tenant({ waitlist: ['--origins', ORIGIN] });
  const b = await adminOf(t);
  const hook = await addEndpoint(b, `${r.url}${path}`);
  expect((await publicPost(h.server, t.waitlistId, { email: `${path.slice(1)}@example.com` })).status).toBe(
    202,
  );
  const page = await pageUntil(b, hook.id, (words) => words.includes('Delivered'));
  return { t, b, hook, page, deliveryId: deliveryIds(page.html)[0] as string };
}

describe('creating an endpoint', () => {
  it('shows the signing secret once, and that secret verifies a real delivery', async () => {
    const t = await h.tenant({ waitlist: ['--origins', ORIGIN] });
    const b = await adminOf(t);
    const hook = await addEndpoint(b, `${r.url}/signed`, ['subscriber.created'], t.waitlistId);
    expect(hook.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(hook.shown.res.headers.get('cache-control')).toBe('no-store');
    expect(text(hook.shown.html)).toContain('This is the only time it is shown');

    const again = await b.get(hook.reveal);
    expect(again.res.status).toBe(410);
    expect(again.html).not.toContain(hook.secret);
    const list = await b.get('/dashboard/webhooks');
    expect(list.html).not.toContain(hook.secret);
    expect(list.html).toContain(`href="/dashboard/webhooks/${hook.id}"`);
    // Its filters as chosen: the one event type, the one waitlist (by name).
    expect(text(list.html)).toContain(`${r.url}/signed subscriber.created Launch`);
    expect((await b.get(`/dashboard/webhooks/${hook.id}`)).html).not.toContain(hook.secret);

    expect((await publicPost(h.server, t.waitlistId, { email: 'signed@example.com' })).status).toBe(202);
    const [got] = await until('the delivery', () => at('/signed').length > 0 && at('/signed'));
    const event = new Webhook(hook.secret).verify(
      got?.body as string,
      got?.headers as Record<string, string>,
    ) as { type: string; data: { email: string } };
    expect(event.type).toBe('subscriber.created');
    expect(event.data.email).toBe('signed@example.com');

    // The page's address is a capability too: its request log line names the route, not the address.
    const name = hook.reveal.split('/').pop() as string;
    await until(
      'the log lines of the reveal',
      () => h.server.output().split('/dashboard/webhooks/created/:reveal').length > 2,
    );
    expect(h.server.output()).not.toContain(name);
    expect(h.server.output()).not.toContain(hook.secret);
  });

  it('takes no box checked as every event, and no waitlist chosen as all of them', async () => {
    const t = await h.tenant();
    const b = await adminOf(t);
    await addEndpoint(b, `${r.url}/all`);
    expect(text((await b.get('/dashboard/webhooks')).html)).toContain(
      `${r.url}/all All events All waitlists`,
    );
  });

  it('puts bad input back on the form, with the reason and what was typed, and creates nothing', async () => {
    const t = await strict.tenant();
    const b = await adminOf(t, strict);
    const long = `https://hooks.example.com/${'a'.repeat(2000)}`;
    const cases: { url: string; events?: string[]; error: string }[] = [
      { url: '', error: 'Enter the URL to send events to.' },
      { url: '   ', error: 'Enter the URL to send events to.' },
      { url: 'http://hooks.example.com/x', error: 'A webhook URL must use https.' },
      { url: 'https://10.1.2.3/hook', error: '10.1.2.3 is not a public address.' },
      { url: 'https://127.0.0.1:8443/hook', error: '127.0.0.1 is not a public address.' },
      { url: long, error: 'A webhook URL must be at most 2000 characters.' },
      // A public address (no lookup needed), so the URL passes and the events are checked.
      {
        url: 'https://93.184.215.14/hook',
        events: ['subscriber.created', 'subscriber.exploded'],
        error: '"subscriber.exploded" is not an event type',
      },
    ];
    for (const c of cases) {
      const page = await submit(b, c.url, c.events, t.waitlistId);
      expect(page.res.status, c.url).toBe(400);
      expect(text(page.html).replaceAll('&quot;', '"'), c.url).toContain(c.error);
      // An empty value is written as a bare attribute.
      if (c.url !== '') expect(page.html, c.url).toContain(`value="${c.url}"`);
      if (c.events) expect(page.html).toMatch(/value="subscriber\.created" checked/);
      else expect(page.html).toContain('aria-invalid="true"');
      expect(page.html).toMatch(new RegExp(`<option value="${t.waitlistId}" selected`));
    }
    const listed = await strict.cli<{ items: unknown[] }>(['webhook', 'list', '--tenant', t.tenantId]);
    expect(listed.items).toEqual([]);
  });
});

describe('how many', () => {
  it("refuses the organisation's 21st endpoint with the reason, and creates nothing", async () => {
    const t = await h.tenant();
    const b = await adminOf(t);
    for (let i = 0; i < 20; i++) expect((await submit(b, `${r.url}/many${i}`)).res.status).toBe(303);
    const refused = await submit(b, `${r.url}/many20`);
    expect(refused.res.status).toBe(400);
    expect(text(refused.html)).toContain(
      'Your organisation has 20 webhook endpoints, the most it may have: delete one before adding another.',
    );
    const listed = await h.cli<{ items: { url: string }[] }>(['webhook', 'list', '--tenant', t.tenantId]);
    expect(listed.items).toHaveLength(20);
    expect(listed.items.map((e) => e.url)).not.toContain(`${r.url}/many20`);
  });
});

describe('deliveries', () => {
  it('lists each delivery with its attempts; "Send again" makes another attempt at the receiver', async () => {
    failing.add('/flaky');
    const t = await h.tenant({ waitlist: ['--origins', ORIGIN] });
    const b = await adminOf(t);
    const hook = await addEndpoint(b, `${r.url}/flaky`);
    expect(text((await b.get(`/dashboard/webhooks/${hook.id}`)).html)).toContain('No deliveries yet.');

    expect((await publicPost(h.server, t.waitlistId, { email: 'retry@example.com' })).status).toBe(202);
    const first = await pageUntil(b, hook.id, (words) => words.includes('HTTP 500'));
    expect(text(first.html)).toMatch(
      /subscriber\.created Pending \d{4}-\d\d-\d\d \d\d:\d\d UTC \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC: HTTP 500, \d+ ms Send again/,
    );
    const [deliveryId] = deliveryIds(first.html);
    expect(at('/flaky')).toHaveLength(1);

    failing.delete('/flaky');
    const resent = await b.post(`/dashboard/webhooks/${hook.id}/deliveries/${deliveryId}/resend`, {
      _csrf: Browser.csrf(first.html),
    });
    expect(resent.res.status).toBe(303);
    expect(resent.res.headers.get('location')).toBe(`/dashboard/webhooks/${hook.id}?resent=1`);
    expect(text((await b.get(`/dashboard/webhooks/${hook.id}?resent=1`)).html)).toContain(
      'Sent again: the delivery is pending until its next attempt.',
    );
    await until('the second attempt', () => at('/flaky').length === 2);
    // The same message again, so a receiver can tell it has had it.
    const [one, two] = at('/flaky');
    expect(two?.headers['webhook-id']).toBe(one?.headers['webhook-id']);
    const second = await pageUntil(b, hook.id, (words) => words.includes('Delivered'));
    expect(text(second.html)).toMatch(/HTTP 500, \d+ ms .*HTTP 200, \d+ ms/);
    expect(deliveryIds(second.html)).toEqual([deliveryId]);
  });

  it('deletes an endpoint: gone from the list, its page says so, and its deliveries cannot be sent again', async () => {
    const { b, hook, page: delivered, deliveryId } = await deliveredOnce('/doomed');
    const token = Browser.csrf(delivered.html);

    const deleted = await b.post(`/dashboard/webhooks/${hook.id}/delete`, { _csrf: token });
    expect(deleted.res.status).toBe(303);
    expect(deleted.res.headers.get('location')).toBe('/dashboard/webhooks?deleted=1');
    const list = await b.get('/dashboard/webhooks?deleted=1');
    expect(text(list.html)).toContain('Endpoint deleted: nothing more is sent to it.');
    expect(list.html).not.toContain(hook.id);
    expect(text(list.html)).toContain('No endpoints yet.');

    const page = await b.get(`/dashboard/webhooks/${hook.id}`);
    expect(text(page.html)).toMatch(/Deleted .* UTC: nothing more is sent to it\./);
    expect(text(page.html)).toContain('subscriber.created Delivered');
    expect(page.html).not.toContain('Send again');
    const forged = await b.post(`/dashboard/webhooks/${hook.id}/deliveries/${deliveryId}/resend`, {
      _csrf: token,
    });
    expect(forged.res.status).toBe(400);
    expect(text(forged.html)).toContain('The endpoint was deleted; nothing more is sent to it.');
    // Refused in the write: the delivery was never made pending again.
    expect(text((await b.get(`/dashboard/webhooks/${hook.id}`)).html)).toContain(
      'subscriber.created Delivered',
    );
  });
});

describe('who may do what', () => {
  it('lets members see endpoints and deliveries, and refuses their create, delete and send again', async () => {
    const { t, hook, deliveryId } = await deliveredOnce('/seen');
    const member = await signedIn(h, await addOperator(h, t.tenantId, 'member'));
    const list = await member.get('/dashboard/webhooks');
    expect(text(list.html)).toContain('Only admins can create or delete webhook endpoints');
    expect(list.html).toContain(`${r.url}/seen`);
    expect(list.html).not.toContain('Add endpoint');
    expect(list.html).not.toContain('/delete');
    const page = await member.get(`/dashboard/webhooks/${hook.id}`);
    expect(text(page.html)).toContain('subscriber.created Delivered');
    expect(page.html).not.toContain('Send again');

    const token = Browser.csrf(list.html);
    const create = await member.post('/dashboard/webhooks', { _csrf: token, url: `${r.url}/sneaky` });
    expect(create.res.status).toBe(403);
    expect(text(create.html)).toContain('Only admins can create webhook endpoints.');
    // Even a blank URL is refused for who sends it, not for what it says.
    expect((await member.post('/dashboard/webhooks', { _csrf: token, url: '' })).res.status).toBe(403);
    const del = await member.post(`/dashboard/webhooks/${hook.id}/delete`, { _csrf: token });
    expect(del.res.status).toBe(403);
    expect(text(del.html)).toContain('Only admins can change webhook endpoints.');
    const resend = await member.post(`/dashboard/webhooks/${hook.id}/deliveries/${deliveryId}/resend`, {
      _csrf: token,
    });
    expect(resend.res.status).toBe(403);

    const listed = await h.cli<{ items: { id: string }[] }>(['webhook', 'list', '--tenant', t.tenantId]);
    expect(listed.items.map((e) => e.id)).toEqual([hook.id]);
    expect(at('/seen')).toHaveLength(1);
  });

  it("logs members' refused create, delete and send again, naming the endpoint and delivery only when theirs", async () => {
    const { t, hook, deliveryId } = await deliveredOnce('/watched');
    const theirs = await deliveredOnce('/elsewhere');
    const email = 'watcher@team.example';
    const { id: memberId } = await h.cli<{ id: string }>([
      'operator',
      'create',
      '--tenant',
      t.tenantId,
      '--email',
      email,
      '--role',
      'member',
      '--password',
      PASSWORD,
    ]);
    const member = await signedIn(h, email);
    const _csrf = Browser.csrf((await member.get('/dashboard/webhooks')).html);
    for (const path of [
      '/dashboard/webhooks',
      `/dashboard/webhooks/${hook.id}/delete`,
      `/dashboard/webhooks/${hook.id}/deliveries/${deliveryId}/resend`,
      `/dashboard/webhooks/${theirs.hook.id}/delete`,
      `/dashboard/webhooks/${hook.id}/deliveries/${theirs.deliveryId}/resend`,
    ]) {
      expect((await member.post(path, { _csrf, url: `${r.url}/sneaky` })).res.status, path).toBe(403);
    }
    // The command line acts as the operator it names: refused and logged the same way.
    await expect(
      h.cli(['webhook', 'create', '--operator', memberId, '--url', `${r.url}/sneaky`]),
    ).rejects.toThrow(/"forbidden"/);

    type Entry = { action: string; actor: { name: string }; subject_id: string | null; details: unknown };
    const log = await h.cli<{ items: Entry[] }>(['activity', '--tenant', t.tenantId]);
    const refused = log.items.filter((e) => e.action.startsWith('webhook.') && e.action.endsWith('_refused'));
    expect(refused.every((e) => e.actor.name === email)).toBe(true);
    // Newest first; another tenant's endpoint and delivery are named by nothing.
    expect(refused.map((e) => [e.action, e.subject_id, e.details])).toEqual([
      ['webhook.create_refused', null, { reason: 'forbidden' }],
      ['webhook.resend_refused', null, { reason: 'forbidden' }],
      ['webhook.delete_refused', null, { reason: 'forbidden' }],
      ['webhook.resend_refused', deliveryId, { webhook_id: hook.id, reason: 'forbidden' }],
      ['webhook.delete_refused', hook.id, { url: `${r.url}/watched`, reason: 'forbidden' }],
      ['webhook.create_refused', null, { reason: 'forbidden' }],
    ]);
    const page = text((await member.get('/dashboard/activity')).html);
    for (const what of [
      'adding a webhook endpoint',
      'deleting a webhook endpoint',
      'sending a delivery again',
    ])
      expect(page).toContain(`${email} (operator) was refused ${what}`);

    const theirLog = await h.cli<{ items: Entry[] }>(['activity', '--tenant', theirs.t.tenantId]);
    expect(theirLog.items.filter((e) => e.actor.name === email)).toEqual([]);
    const listed = await h.cli<{ items: { id: string }[] }>(['webhook', 'list', '--tenant', t.tenantId]);
    expect(listed.items.map((e) => e.id)).toEqual([hook.id]);
  });

  it('knows no endpoint or delivery of another tenant: 404, and nothing changes', async () => {
    const theirs = await deliveredOnce('/theirs');
    const mine = await h.tenant();
    const b = await adminOf(mine);
    const token = Browser.csrf((await b.get('/dashboard/webhooks')).html);
    const page = await b.get(`/dashboard/webhooks/${theirs.hook.id}`);
    expect(page.res.status).toBe(404);
    expect(text(page.html)).toContain('There is no such webhook endpoint in your organisation.');
    expect(page.html).not.toContain('/theirs');
    expect((await b.get('/dashboard/webhooks/wh_doesNotExist0000')).res.status).toBe(404);
    const del = await b.post(`/dashboard/webhooks/${theirs.hook.id}/delete`, { _csrf: token });
    expect(del.res.status).toBe(404);
    const resend = `deliveries/${theirs.deliveryId}/resend`;
    expect(
      (await b.post(`/dashboard/webhooks/${theirs.hook.id}/${resend}`, { _csrf: token })).res.status,
    ).toBe(404);
    // Nor under one's own endpoint's address.
    const own = await addEndpoint(b, `${r.url}/mine`);
    expect((await b.post(`/dashboard/webhooks/${own.id}/${resend}`, { _csrf: token })).res.status).toBe(404);
    // Nor their waitlist as a filter.
    expect((await submit(b, `${r.url}/mine`, [], theirs.t.waitlistId)).res.status).toBe(404);

    const listed = await h.cli<{ items: { id: string }[] }>([
      'webhook',
      'list',
      '--tenant',
      theirs.t.tenantId,
    ]);
    expect(listed.items.map((e) => e.id)).toEqual([theirs.hook.id]);
    expect(at('/theirs')).toHaveLength(1);
  });
});
