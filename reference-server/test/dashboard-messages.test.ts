/**
 * The message editor in the dashboard (docs/messages.md#the-editor) over HTTP, as a browser
 * without JavaScript posts it, on either store: saved per kind, every hostile template refused at
 * its field as typed with nothing saved, members and admins, the live preview's endpoint, the
 * test mail through a real SMTP server on loopback (parsed with mailparser) and its throttle,
 * and the waitlist's access_url on its settings page.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type ReceivedMail,
  type SmtpServer,
  startSmtpServer,
  type Tenant,
  tempDir,
} from '@waitlistkit/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settingsValues } from '../src/dashboard/forms.js';
import type { WaitlistSettings } from '../src/domain/settings.js';
import { addOperator, Browser, type Harness, harness, messageShow, until } from './helpers.js';

let smtp: SmtpServer;
let h: Harness;
const files = tempDir();

beforeAll(async () => {
  smtp = await startSmtpServer();
  h = await harness({ WAITLIST_SMTP_URL: smtp.url, WAITLIST_MAIL_FROM: 'Launch <waitlist@launch.example>' });
});
afterAll(async () => {
  await h.close();
  await smtp.close();
  files.cleanup();
});

const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#39;|&apos;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');

/** A tenant whose waitlist asks for a company, and a browser signed in as `role`. */
async function editor(role: 'admin' | 'member' = 'admin', t?: Tenant) {
  const tenant = t ?? (await h.tenant());
  if (!t) {
    const fields = join(files.dir, `fields-${tenant.waitlistId}.json`);
    writeFileSync(
      fields,
      JSON.stringify([{ key: 'company', label: 'Company', type: 'text', required: false }]),
    );
    await h.cli(['waitlist', 'update', '--waitlist', tenant.waitlistId, '--fields', fields]);
  }
  const email =
    role === 'admin' ? `admin-${tenant.tenantId}@test.example` : await addOperator(h, tenant.tenantId, role);
  const b = new Browser(h.server.url);
  await b.signIn(email);
  const path = (kind = 'welcome') => `/dashboard/waitlists/${tenant.waitlistId}/messages/${kind}`;
  const csrf = Browser.csrf((await b.get(path())).html);
  const post = (form: Record<string, string>, kind = 'welcome') =>
    b.post(path(kind), { _csrf: csrf, ...form });
  const preview = async (form: Record<string, string>, kind = 'welcome') => {
    const res = await fetch(`${h.server.url}${path(kind)}/preview`, {
      method: 'POST',
      headers: {
        Cookie: b.cookie,
        'Content-Type': 'application/x-www-form-urlencoded',
        Origin: h.server.url,
        Accept: 'application/json',
      },
      body: new URLSearchParams({ _csrf: csrf, ...form }),
    });
    return { status: res.status, body: (await res.json()) as Record<string, Record<string, string>> };
  };
  const shown = (kind = 'welcome') =>
    h.cli<{ subject: string; body: string; enabled: boolean; updated_at: string | null }>(
      messageShow(tenant.waitlistId, kind),
    );
  return { t: tenant, b, email, path, post, preview, shown };
}

const activity = async (t: Tenant) =>
  (
    await h.cli<{ items: { action: string; actor: { name: string }; details: Record<string, unknown> }[] }>([
      'activity',
      '--tenant',
      t.tenantId,
    ])
  ).items;

const header = (mail: ReceivedMail['parsed'], name: string) =>
  mail.headerLines.find((l) => l.key === name)?.line.replace(/^[^:]+:\s*/, '');

describe('the editor', () => {
  it('saves each kind with its switch, and shows it again with the preview for the sample subscriber', async () => {
    const { t, b, path, post, shown } = await editor();
    const list = await b.get(`/dashboard/waitlists/${t.waitlistId}/messages`);
    expect(text(list.html)).toContain('Welcome Not written');
    for (const kind of ['welcome', 'referral', 'admitted']) {
      const saved = await post(
        {
          subject: `Hi {{email}} (${kind})`,
          body: 'Hello {{fields.company}},\r\n\r\nnumber {{position}}.',
          enabled: 'on',
          do: 'save',
        },
        kind,
      );
      expect(saved.res.status).toBe(303);
      expect(saved.res.headers.get('location')).toBe(`${path(kind)}?saved=1`);
      // A textarea's CRLF is kept as LF, as the command line keeps a file's lines.
      expect(await shown(kind)).toMatchObject({
        subject: `Hi {{email}} (${kind})`,
        body: 'Hello {{fields.company}},\n\nnumber {{position}}.',
        enabled: true,
      });
      const page = await b.get(`${path(kind)}?saved=1`);
      expect(text(page.html)).toContain('Message saved.');
      expect(text(page.html)).toContain(`Hi ada@example.com (${kind})`);
      expect(text(page.html)).toContain('Hello (company), number 42.');
      // A frame sandboxed of everything: the template's markup neither runs nor shares our origin.
      expect(page.html).toContain(
        '<iframe id="preview-html" title="HTML part of the preview" sandbox srcdoc=',
      );
    }
    expect((await post({ subject: 'Off now', body: 'Bye', do: 'save' })).res.status).toBe(303);
    expect(await shown()).toMatchObject({ subject: 'Off now', enabled: false });
    const messages = text((await b.get(`/dashboard/waitlists/${t.waitlistId}/messages`)).html);
    expect(messages).toContain('Welcome Off Off now');
    expect(messages).toContain('Admitted On Hi {{email}} (admitted)');
  });

  it("lists the merge tags beside the editor with what each becomes, the waitlist's fields included", async () => {
    const { b, path } = await editor();
    const page = text((await b.get(path('admitted'))).html);
    for (const tag of [
      'waitlist_name',
      'email',
      'position',
      'people_ahead',
      'referral_count',
      'referral_link',
      'status_url',
      'access_url',
    ])
      expect(page).toContain(`{{${tag}}}`);
    expect(page).toContain('{{position}} their place in the line: 42');
    expect(page).toContain('{{fields.company}} their answer to “Company”: (company)');
    expect(page).toContain("{{access_url}} the waitlist's Access URL setting: (empty)");
  });

  it('previews the typed text on a page of its own, saving nothing', async () => {
    const { post, shown } = await editor();
    const page = await post({
      subject: 'Typed <b>',
      body: 'Not saved {{email}} <script>alert(1)</script>',
      do: 'preview',
    });
    expect(page.res.status).toBe(200);
    expect(page.html).toContain('value="Typed &lt;b>"');
    expect(text(page.html)).toContain('Not saved ada@example.com <script>alert(1)</script>');
    // The HTML part only in the frame's srcdoc, escaped twice: once by the mail, once by the attribute.
    expect(page.html).not.toContain('<script>alert(1)');
    expect(page.html).toContain('srcdoc="&lt;!doctype html>');
    expect(page.html).toContain('&amp;lt;script&amp;gt;alert(1)');
    expect((await shown()).updated_at).toBeNull();
  });

  const HOSTILE: [string, Record<string, string>, 'subject' | 'body', string][] = [
    ['an unknown tag', { body: 'Hi {{unknown}}' }, 'body', '`{{unknown}}` is not a merge tag'],
    ['an unbalanced brace', { body: 'Hi {{email' }, 'body', 'is not closed by'],
    ['{{constructor}}', { body: '{{constructor}}' }, 'body', '`{{constructor}}` is not a merge tag'],
    ['{{__proto__}}', { subject: 'Hi {{__proto__}}' }, 'subject', '`{{__proto__}}` is not a merge tag'],
    [
      'a line break in the subject',
      { subject: 'Hi\r\nBcc: x@example.com' },
      'subject',
      'it has a line break',
    ],
    ['a field the waitlist lacks', { body: '{{fields.gone}}' }, 'body', 'names no field of this waitlist'],
    ['a body of 1 MB', { body: 'x'.repeat(1_000_000) }, 'body', 'more than 5000 characters'],
  ];

  it.each(HOSTILE)(
    'refuses %s at its field, keeping what was typed and saving nothing',
    async (_, change, part, says) => {
      const { post, preview, shown } = await editor();
      await post({ subject: 'Kept', body: 'Kept body', do: 'save' });
      const form = { subject: 'Fine {{email}}', body: 'Fine body', enabled: 'on', ...change };
      for (const action of ['save', 'preview', 'test']) {
        const refused = await post({ ...form, do: action });
        expect(refused.res.status).toBe(400);
        expect(refused.html).toMatch(
          new RegExp(
            `id="${part}"[^>]*aria-invalid="true"[^>]*aria-describedby="${part}-help ${part}-error"`,
          ),
        );
        expect(text(refused.html)).toContain(says);
        expect(refused.html).toContain(`id="${part}-error"`);
        expect(text(refused.html)).toContain('nothing was saved or sent');
        if (part === 'body') expect(refused.html).toContain(form.body.slice(0, 1000).replace(/</g, '&lt;'));
        else expect(refused.html).toContain('value="Hi');
      }
      const answer = await preview(form);
      expect(answer.status).toBe(400);
      expect(answer.body.error).toMatchObject({ code: 'invalid_request', field: part });
      expect(answer.body.error?.message).toContain(says);
      expect(await shown()).toMatchObject({ subject: 'Kept', body: 'Kept body', enabled: false });
    },
  );

  it('answers a form past what the editor reads with a page that says so, not the raw 413', async () => {
    const { post, shown, b, t } = await editor();
    const huge = await post({ subject: 'Huge', body: 'x'.repeat(3_000_000), do: 'save' });
    expect(huge.res.status).toBe(413);
    expect(text(huge.html)).toContain('The form was larger than the dashboard accepts, so nothing was done.');
    expect((await shown()).updated_at).toBeNull();
    // Every form of the dashboard answers so past its 32 kB.
    const settings = await b.post(`/dashboard/waitlists/${t.waitlistId}`, { name: 'x'.repeat(40_000) });
    expect(settings.res.status).toBe(413);
    expect(text(settings.html)).toContain('larger than the dashboard accepts');
  });

  it("answers a kind that is not a message, or another tenant's waitlist, with 404", async () => {
    const { b, post, preview, t } = await editor();
    const other = await h.tenant();
    expect((await b.get(`/dashboard/waitlists/${t.waitlistId}/messages/goodbye`)).res.status).toBe(404);
    expect((await post({ subject: 'a', body: 'b' }, 'goodbye')).res.status).toBe(404);
    expect((await preview({ subject: 'a', body: 'b' }, 'goodbye')).status).toBe(404);
    expect((await b.get(`/dashboard/waitlists/${other.waitlistId}/messages/welcome`)).res.status).toBe(404);
    expect((await b.get(`/dashboard/waitlists/${other.waitlistId}/messages`)).res.status).toBe(404);
  });
});

describe('the live preview endpoint', () => {
  it('renders the typed text for the sample subscriber as JSON, saving nothing', async () => {
    const { preview, shown } = await editor();
    const answer = await preview({
      subject: 'Hi {{email}}',
      body: 'You are {{position}} at {{waitlist_name}}.\r\nSee https://x.example',
    });
    expect(answer.status).toBe(200);
    expect(answer.body.preview).toMatchObject({ subject: 'Hi ada@example.com' });
    expect(answer.body.preview?.text).toMatch(
      /^You are 42 at Launch\.\nSee https:\/\/x\.example\n\nTo stop these emails: http:\/\/\S+\/s\/SAMPLE\/unsubscribe\n$/,
    );
    expect(answer.body.preview?.html).toContain('<a href="https://x.example">');
    expect((await shown()).updated_at).toBeNull();
  });

  it("is a post like the others: refused without the session's token or from another site", async () => {
    const { b, path } = await editor();
    const url = `${h.server.url}${path()}/preview`;
    const form = new URLSearchParams({ subject: 'a', body: 'b' });
    const headers = { Cookie: b.cookie, 'Content-Type': 'application/x-www-form-urlencoded' };
    expect((await fetch(url, { method: 'POST', headers, body: form })).status).toBe(403);
    const csrf = Browser.csrf((await b.get(path())).html);
    const forged = await fetch(url, {
      method: 'POST',
      headers: { ...headers, 'Sec-Fetch-Site': 'cross-site' },
      body: new URLSearchParams({ _csrf: csrf, subject: 'a', body: 'b' }),
    });
    expect(forged.status).toBe(403);
    const signedOut = await fetch(url, { method: 'POST', body: new URLSearchParams({ _csrf: csrf }) });
    expect(signedOut.status).toBe(401);
  });
});

describe('members', () => {
  it('see the editor without its save button, preview and test, and are refused a forged save, logged', async () => {
    const admin = await editor();
    const { b, email, path, post, preview, shown } = await editor('member', admin.t);
    const page = await b.get(path());
    expect(page.res.status).toBe(200);
    expect(page.html).not.toContain('Save message');
    expect(text(page.html)).toContain('Only admins can save messages');
    const forged = await post({ subject: 'Member', body: 'Forged', enabled: 'on', do: 'save' });
    expect(forged.res.status).toBe(403);
    expect(text(forged.html)).toContain('Only admins can change messages.');
    expect((await shown()).updated_at).toBeNull();
    expect((await preview({ subject: 'Member {{email}}', body: 'Looks' })).status).toBe(200);
    expect((await post({ subject: 'Member test', body: 'Looks', do: 'test' })).res.status).toBe(200);
    await until("the member's test", () => smtp.mails.find((m) => m.to.includes(email)));
    const log = await activity(admin.t);
    expect(
      log.filter((e) => e.action.startsWith('message.')).map((e) => `${e.action} ${e.actor.name}`),
    ).toEqual([`message.test_sent ${email}`, `message.update_refused ${email}`]);
  });
});

describe('send me a test', () => {
  it('mails the typed text to the operator through SMTP, both parts and the unsubscribe headers, saving nothing', async () => {
    const { t, email, post, shown } = await editor();
    await post({ subject: 'Saved', body: 'Saved body', do: 'save' });
    const sent = await post({
      subject: 'Typed {{email}}',
      body: 'Hi {{fields.company}} <b>\r\n\r\nYou are {{position}}.',
      do: 'test',
    });
    expect(sent.res.status).toBe(200);
    expect(text(sent.html)).toContain(
      `A test of the message above is on its way to ${email}. Nothing was saved.`,
    );
    expect(sent.html).toContain('value="Typed {{email}}"');
    const mail = (await until('the test mail', () => smtp.mails.find((m) => m.to.includes(email)))).parsed;
    expect(mail.subject).toBe('[Test] Typed ada@example.com');
    expect(mail.text).toContain('Hi (company) <b>\n\nYou are 42.');
    expect(String(mail.html)).toContain('<p>Hi (company) &lt;b&gt;</p>');
    // The same headers as the real mail, with the sample's link, which finds nobody.
    const link = `${h.server.url}/s/SAMPLE/unsubscribe`;
    expect(mail.text).toContain(`To stop these emails: ${link}`);
    expect(header(mail, 'list-unsubscribe')).toBe(`<${link}>`);
    expect(header(mail, 'list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    expect((await fetch(link)).status).toBe(404);
    expect(await shown()).toMatchObject({ subject: 'Saved', body: 'Saved body' });
    const log = await activity(t);
    // By kind only: neither the address (beyond the actor's name) nor the text.
    expect(log[0]).toMatchObject({ action: 'message.test_sent', actor: { name: email } });
    expect(log[0]?.details).toEqual({ kind: 'welcome' });
  });

  it('is throttled to three a minute per operator, the fourth answered 429 with Retry-After and the text kept', async () => {
    const { email, post } = await editor();
    for (let i = 1; i <= 3; i++)
      expect((await post({ subject: `Try ${i}`, body: 'b', do: 'test' }, 'admitted')).res.status).toBe(200);
    const fourth = await post({ subject: 'Try 4', body: 'b', do: 'test' }, 'admitted');
    expect(fourth.res.status).toBe(429);
    expect(Number(fourth.res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(text(fourth.html)).toMatch(/You sent 3 tests in the last minute; send another in \d+ s\./);
    expect(fourth.html).toContain('value="Try 4"');
    await until('three tests', () => smtp.mails.filter((m) => m.to.includes(email)).length === 3);
    expect(smtp.mails.some((m) => m.parsed.subject === '[Test] Try 4')).toBe(false);
  });

  it('is refused clearly on a server without SMTP, where the page says mail waits', async () => {
    const bare = await harness();
    try {
      const t = await bare.tenant();
      const b = new Browser(bare.server.url);
      await b.signIn(`admin-${t.tenantId}@test.example`);
      const path = `/dashboard/waitlists/${t.waitlistId}/messages/welcome`;
      const page = await b.get(path);
      expect(text(page.html)).toContain('This server has no WAITLIST_SMTP_URL');
      const refused = await b.post(path, {
        _csrf: Browser.csrf(page.html),
        subject: 'S',
        body: 'B',
        do: 'test',
      });
      expect(refused.res.status).toBe(409);
      expect(text(refused.html)).toContain(
        'This server has no WAITLIST_SMTP_URL, so it sends no mail, tests included.',
      );
      expect(refused.html).toContain('value="S"');
    } finally {
      await bare.close();
    }
  });
});

describe('versions per language (docs/messages.md#languages)', () => {
  const showIn = (t: Tenant, lang?: string) =>
    h.cli<{ subject: string; body: string; from?: string; versions: string[] }>(
      messageShow(t.waitlistId, 'welcome', lang),
    );

  it('opens a language on our default text in it, saves it as that language’s version, the own one untouched', async () => {
    const { t, b, path, post } = await editor();
    const ours = await showIn(t, 'de');
    expect(ours.from).toBe('default');
    const page = await b.get(`${path()}?lang=de`);
    expect(page.res.status).toBe(200);
    expect(text(page.html)).toContain('Edit the version in German (de)');
    expect(text(page.html)).toContain('Readers in German (de) get our default text in German (de)');
    // The fields hold our German text and speak German; the form carries the version.
    expect(page.html).toContain(`value="${ours.subject}"`);
    expect(page.html).toMatch(/<input[^>]*name="subject"[^>]*lang="de" dir="ltr"/);
    expect(page.html).toContain('<input type="hidden" name="lang" value="de"');
    expect(text(page.html)).toContain('Diese E-Mails abbestellen:');

    const saved = await post({
      subject: 'Hallo {{email}}',
      body: 'Willkommen!',
      enabled: 'on',
      do: 'save',
      lang: 'de',
    });
    expect(saved.res.status).toBe(303);
    expect(saved.res.headers.get('location')).toBe(`${path()}?lang=de&saved=1`);
    expect(await showIn(t, 'de')).toMatchObject({
      subject: 'Hallo {{email}}',
      from: 'language',
      versions: ['de'],
    });
    expect(await showIn(t)).toMatchObject({ subject: '', body: '' });
    const list = text((await b.get(`/dashboard/waitlists/${t.waitlistId}/messages`)).html);
    expect(list).toMatch(/Welcome On\s+—?\s*de/);
    const menu = (await b.get(path())).html;
    expect(menu).toMatch(/<option value="de">German \(de\), saved<\/option>/);
    expect((await activity(t))[0]).toMatchObject({
      action: 'message.updated',
      details: { kind: 'welcome', lang: 'de' },
    });
  });

  it('writes a right-to-left version right to left, and previews and tests it in that language', async () => {
    const { b, email, path, post, preview } = await editor();
    const page = await b.get(`${path()}?lang=ar`);
    expect(page.html).toMatch(/<textarea[^>]*lang="ar" dir="rtl"/);
    const json = await preview({ subject: 'مرحبا', body: 'أهلا {{email}}', lang: 'ar' });
    expect(json.status).toBe(200);
    expect(json.body.preview?.html).toContain('<html lang="ar" dir="rtl">');
    expect(json.body.preview?.text).toContain('لإيقاف هذه الرسائل:');
    const sent = await post({ subject: 'Test {{email}}', body: 'Hallo.', do: 'test', lang: 'de' });
    expect(sent.res.status).toBe(200);
    const mail = (
      await until('the German test', () =>
        smtp.mails.find((m) => m.to.includes(email) && m.parsed.subject === `[Test] Test ada@example.com`),
      )
    ).parsed;
    expect(mail.text).toContain('Diese E-Mails abbestellen:');
    expect(String(mail.html)).toContain('<html lang="de" dir="ltr">');
  });

  it('refuses a language it lacks, garbage, 10 KB or a tag given twice, saving nothing', async () => {
    const { t, b, path, post, preview } = await editor();
    await post({ subject: 'Own', body: 'Own body', do: 'save' });
    const before = await showIn(t);
    for (const query of [
      'lang=tlh',
      'lang=DE',
      `lang=${'x'.repeat(10_000)}`,
      'lang=de&lang=fr',
      'lang=%3Cscript%3E',
    ]) {
      const page = await b.get(`${path()}?${query}`);
      expect(page.res.status, query).toBe(400);
      expect(text(page.html)).toContain("A message's language is one of the");
      expect(page.html).not.toContain('<script>');
    }
    for (const lang of ['tlh', 'pt-BR', 'x'.repeat(10_000)]) {
      const saved = await post({ subject: 'Bad', body: 'Bad', do: 'save', lang });
      expect(saved.res.status).toBe(400);
      const json = await preview({ subject: 'Bad', body: 'Bad', lang });
      expect(json).toMatchObject({
        status: 400,
        body: { error: { code: 'invalid_request', field: 'lang' } },
      });
    }
    expect(await showIn(t)).toEqual(before);
  });
});

describe('the access URL on the settings page', () => {
  async function settingsForm(t: Tenant) {
    const shownSettings = await h.cli<WaitlistSettings & { name: string }>([
      'waitlist',
      'show',
      '--waitlist',
      t.waitlistId,
    ]);
    return { name: shownSettings.name, ...settingsValues(shownSettings) };
  }

  it('is set, cleared by an empty value, and refused at its field when it is not https', async () => {
    const { t, b } = await editor();
    const path = `/dashboard/waitlists/${t.waitlistId}`;
    const page = await b.get(path);
    expect(page.html).toMatch(/id="setting-access_url" name="access_url" type="url"/);
    expect(page.html).toContain(`href="${path}/messages"`);
    const csrf = Browser.csrf(page.html);
    const form = await settingsForm(t);
    const access = async () =>
      (await h.cli<{ access_url: string }>(['waitlist', 'show', '--waitlist', t.waitlistId])).access_url;

    expect(
      (await b.post(path, { ...form, _csrf: csrf, access_url: 'https://app.example/in' })).res.status,
    ).toBe(303);
    expect(await access()).toBe('https://app.example/in');
    expect((await b.get(path)).html).toContain('value="https://app.example/in"');

    const refused = await b.post(path, { ...form, _csrf: csrf, access_url: 'http://app.example/in' });
    expect(refused.res.status).toBe(400);
    expect(refused.html).toMatch(
      /id="setting-access_url"[^>]*aria-invalid="true"[^>]*aria-describedby="setting-access_url-help setting-access_url-error"/,
    );
    expect(text(refused.html)).toContain('"http://app.example/in" is not an https URL.');
    expect(refused.html).toContain('value="http://app.example/in"');
    expect(await access()).toBe('https://app.example/in');

    expect((await b.post(path, { ...form, _csrf: csrf, access_url: '' })).res.status).toBe(303);
    expect(await access()).toBe('');
  });
});
