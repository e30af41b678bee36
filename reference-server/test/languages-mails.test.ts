/**
 * Pages and mails in the subscriber's language (docs/languages.md#pages-and-mails), end to end on
 * either store: sign-ups recording `lang` (or not, the waitlist's `default_lang` standing in), the
 * status, confirmation and unsubscribe pages over HTTP, and the confirmation mail and the three
 * messages through a real SMTP server on loopback, parsed with mailparser.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Language } from '@waitlistkit/protocol';
import {
  type ReceivedMail,
  type SmtpServer,
  startSmtpServer,
  type Tenant,
  tempDir,
} from '@waitlistkit/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wordsFor } from '../src/domain/texts/index.js';
import { type Harness, harness, ORIGIN, publicPost, until } from './helpers.js';

type ParsedMail = ReceivedMail['parsed'];

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

const say = (lang: Language) => wordsFor(lang).say;

const mailTo = (to: string, what: string, pick: (m: ParsedMail) => boolean = () => true) =>
  until(`${what} to ${to}`, () =>
    smtp.mails
      .filter((m) => m.to.includes(to))
      .map((m) => m.parsed)
      .find(pick),
  );

async function signUp(t: Tenant, email: string, lang?: string, ref?: string) {
  const body = { email, ...(lang ? { lang } : {}), ...(ref ? { referral_code: ref } : {}) };
  const res = await publicPost(h.server, t.waitlistId, body);
  expect(res.status).toBe(202);
  return (await res.json()) as { status_token: string; referral_code: string };
}

/** `<html lang dir>` of a page or a mail's HTML part. */
const htmlTag = (html: string) => /<html[^>]*>/.exec(html)?.[0] ?? '';

describe('the pages', () => {
  it('the status page speaks the language recorded at sign-up, right to left for Arabic', async () => {
    const t = await h.tenant({ waitlist: ['--referrals', 'on', '--origins', ORIGIN] });
    for (const lang of ['de', 'ja', 'ar'] as const) {
      const { status_token } = await signUp(t, `status-${lang}@example.com`, lang);
      const page = await fetch(`${h.server.url}/s/${status_token}`);
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(htmlTag(html)).toBe(`<html lang="${lang}" dir="${lang === 'ar' ? 'rtl' : 'ltr'}">`);
      expect(html).toContain(String(say(lang)('shareHeading')));
    }
    expect(String(say('de')('shareHeading'))).toBe('Teile deinen Link und rück nach vorn');
  });

  it('a subscriber who gave no language gets the waitlist’s default_lang', async () => {
    const t = await h.tenant({
      waitlist: ['--referrals', 'on', '--origins', ORIGIN, '--default-lang', 'fr'],
    });
    const { status_token } = await signUp(t, 'nolang@example.com');
    const html = await (await fetch(`${h.server.url}/s/${status_token}`)).text();
    expect(htmlTag(html)).toBe('<html lang="fr" dir="ltr">');
    expect(html).toContain(String(say('fr')('shareHeading')));
    const unsubscribe = await (await fetch(`${h.server.url}/s/${status_token}/unsubscribe`)).text();
    expect(htmlTag(unsubscribe)).toBe('<html lang="fr" dir="ltr">');
  });

  it('the unsubscribe page asks and answers in their language, the browser’s not mattering', async () => {
    const t = await h.tenant({ waitlist: ['--referrals', 'on', '--origins', ORIGIN] });
    const { status_token } = await signUp(t, 'unsub-ar@example.com', 'ar');
    const url = `${h.server.url}/s/${status_token}/unsubscribe`;
    const askedRes = await fetch(url, { headers: { 'Accept-Language': 'de' } });
    expect(askedRes.status).toBe(200);
    const asked = await askedRes.text();
    expect(htmlTag(asked)).toBe('<html lang="ar" dir="rtl">');
    expect(asked).toContain(String(say('ar')('unsubscribeHeading')));
    const done = await fetch(url, { method: 'POST', headers: { 'Accept-Language': 'de' } });
    expect(done.status).toBe(200);
    const answered = await done.text();
    expect(htmlTag(answered)).toBe('<html lang="ar" dir="rtl">');
    expect(answered).toContain(String(say('ar')('unsubscribedHeading')));
  });
});

describe('the confirmation mail and page', () => {
  it('in German, Japanese and Arabic: subject and text in the language, HTML with lang and dir, the page too', async () => {
    const t = await h.tenant({ waitlist: ['--origins', ORIGIN, '--confirm-email', 'on'] });
    await h.cli(['waitlist', 'update', '--waitlist', t.waitlistId, '--name', 'Launch']);
    for (const lang of ['de', 'ja', 'ar'] as const) {
      const email = `confirm-${lang}@example.com`;
      await signUp(t, email, lang);
      const mail = await mailTo(email, 'the confirmation mail');
      expect(mail.subject).toBe(say(lang)('confirmMailSubject', { waitlist: 'Launch' }));
      expect(mail.text).toContain(String(say(lang)('confirmMailOpen')));
      const dir = lang === 'ar' ? 'rtl' : 'ltr';
      expect(htmlTag(String(mail.html))).toBe(`<html lang="${lang}" dir="${dir}">`);
      const url = /https?:\/\/\S+\/c\/\S+/.exec(mail.text ?? '')?.[0] ?? '';
      const page = await (await fetch(url)).text();
      expect(htmlTag(page)).toBe(`<html lang="${lang}" dir="${dir}">`);
      expect(page).toContain(String(say(lang)('confirmHeading')));
      // The button's POST redirects to the page, which now says it is done, still in their language.
      const pressed = await fetch(url, { method: 'POST' });
      expect(pressed.status).toBe(200);
      const confirmed = await pressed.text();
      expect(htmlTag(confirmed)).toBe(`<html lang="${lang}" dir="${dir}">`);
      expect(confirmed).toContain(String(say(lang)('confirmedHeading')));
    }
    expect(say('de')('confirmMailSubject', { waitlist: 'Launch' })).toBe(
      'Bestätige deine E-Mail-Adresse für Launch',
    );
  });
});

export { files };
