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
import { defaultTemplate } from '../src/domain/message-choice.js';
import type { MessageKind } from '../src/domain/messages.js';
import { wordsFor } from '../src/domain/texts/index.js';
import { inProcess } from './cli-in-process.js';
import { sql } from './database.js';
import { type Harness, harness, messageShow, ORIGIN, publicPost, until } from './helpers.js';

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

const ACCESS = 'https://app.launch.example/in';

/** The command line in process on the server's database: its exit code, JSON and error. */
const run = (args: readonly string[]) => inProcess(h.db).run(args);

async function setMessage(t: Tenant, kind: MessageKind, lang: string, subject: string, body: string) {
  const file = join(files.dir, `${kind}-${Math.random().toString(36).slice(2)}.txt`);
  writeFileSync(file, body);
  const args = ['--operator', t.operatorId, '--waitlist', t.waitlistId, '--kind', kind, '--lang', lang];
  return run(['message', 'set', ...args, '--subject', subject, '--body-file', file, '--on']);
}

async function admit(t: Tenant, email: string) {
  const [row] = await sql<{ id: string }>(h.db, 'SELECT id FROM subscribers WHERE email = ?', [email]);
  const args = ['--operator', t.operatorId, '--waitlist', t.waitlistId, '--ids', String(row?.id)];
  return run(['subscriber', 'admit', ...args]);
}

/** Our template's words in a mail: every stretch of it between merge tags. */
const wordsOfTemplate = (template: string) =>
  template
    .split(/\{\{[^}]*\}\}/)
    .flatMap((part) => part.split('\n'))
    .map((part) => part.trim())
    .filter((part) => part !== '');

describe('the three messages', () => {
  it('our default welcome, referral and admitted mails in German, Japanese and Arabic, HTML with lang and dir', async () => {
    const t = await h.tenant({
      waitlist: ['--referrals', 'on', '--origins', ORIGIN, '--access-url', ACCESS],
    });
    // Switched on by a French version: everyone else gets our default in their language.
    for (const kind of ['welcome', 'referral', 'admitted'] as const) {
      expect((await setMessage(t, kind, 'fr', `FR ${kind}`, `Bonjour (${kind})`)).code).toBe(0);
    }
    for (const lang of ['de', 'ja', 'ar'] as const) {
      const dir = lang === 'ar' ? 'rtl' : 'ltr';
      const email = `three-${lang}@example.com`;
      const { status_token, referral_code } = await signUp(t, email, lang);
      const expected = (kind: MessageKind) => {
        const template = defaultTemplate(kind, lang);
        return {
          subject: template.subject.replace(/\{\{\s*waitlist_name\s*\}\}/g, 'Launch'),
          body: template.body,
        };
      };
      const check = (mail: ParsedMail, kind: MessageKind) => {
        for (const part of wordsOfTemplate(expected(kind).body)) expect(mail.text).toContain(part);
        expect(htmlTag(String(mail.html))).toBe(`<html lang="${lang}" dir="${dir}">`);
        const stop = say(lang)('stopEmails', { link: `${h.server.url}/s/${status_token}/unsubscribe` });
        if (kind === 'admitted') expect(mail.text).not.toContain(stop);
        else expect(mail.text).toContain(stop);
      };
      const bySubject = (kind: MessageKind) => (m: ParsedMail) => m.subject === expected(kind).subject;
      check(await mailTo(email, `the ${lang} welcome`, bySubject('welcome')), 'welcome');
      await signUp(t, `friend-${lang}@example.com`, 'fr', referral_code);
      check(await mailTo(email, `the ${lang} referral`, bySubject('referral')), 'referral');
      expect((await admit(t, email)).code).toBe(0);
      check(await mailTo(email, `the ${lang} admitted mail`, bySubject('admitted')), 'admitted');
    }
    // The words themselves, once, spelled out.
    expect(defaultTemplate('welcome', 'de').subject).toBe(
      'Du stehst auf der Warteliste von {{waitlist_name}}',
    );
    expect(String(say('de')('stopEmails', { link: 'L' }))).toBe('Diese E-Mails abbestellen: L');
    // The French friends got the French version, the operator's words as written.
    const friend = await mailTo(
      'friend-de@example.com',
      'the French welcome',
      (m) => m.subject === 'FR welcome',
    );
    expect(friend.text).toContain('Bonjour (welcome)');
    expect(htmlTag(String(friend.html))).toBe('<html lang="fr" dir="ltr">');
  });

  it('an operator’s German version goes to a German subscriber, our default to a French one, the default_lang to one with none', async () => {
    const t = await h.tenant({
      waitlist: ['--referrals', 'on', '--origins', ORIGIN, '--default-lang', 'ja'],
    });
    expect(
      (await setMessage(t, 'welcome', 'de', 'Willkommen bei {{waitlist_name}}', 'Hallo {{email}}!')).code,
    ).toBe(0);
    // The waitlist's own version, never saved, is empty; the message is on all the same.
    const own = await run(['message', 'show', '--waitlist', t.waitlistId, '--kind', 'welcome']);
    expect(own.json).toMatchObject({ lang: '', subject: '', enabled: true, updated_at: null });
    await signUp(t, 'version-de@example.com', 'de');
    await signUp(t, 'version-fr@example.com', 'fr');
    await signUp(t, 'version-none@example.com');
    const de = await mailTo('version-de@example.com', 'the German version');
    expect(de.subject).toBe('Willkommen bei Launch');
    expect(de.text).toContain('Hallo version-de@example.com!');
    expect(de.text).toContain('Diese E-Mails abbestellen:');
    const fr = await mailTo('version-fr@example.com', 'the French default');
    expect(fr.subject).toBe(defaultTemplate('welcome', 'fr').subject.replace('{{waitlist_name}}', 'Launch'));
    expect(htmlTag(String(fr.html))).toBe('<html lang="fr" dir="ltr">');
    const none = await mailTo('version-none@example.com', 'the default_lang default');
    expect(none.subject).toBe(
      defaultTemplate('welcome', 'ja').subject.replace('{{waitlist_name}}', 'Launch'),
    );
    expect(htmlTag(String(none.html))).toBe('<html lang="ja" dir="ltr">');
  });

  it('the waitlist’s own version goes to its default language only, ours to the rest; its switch is the message’s, all versions', async () => {
    const t = await h.tenant({ waitlist: ['--origins', ORIGIN] });
    const own = join(files.dir, `own-${Math.random().toString(36).slice(2)}.txt`);
    writeFileSync(own, 'Our own words.');
    const base = ['--operator', t.operatorId, '--waitlist', t.waitlistId, '--kind', 'welcome'];
    expect(
      (await run(['message', 'set', ...base, '--subject', 'Own', '--body-file', own, '--on'])).code,
    ).toBe(0);
    expect((await setMessage(t, 'welcome', 'de', 'Eigene', 'Eigene Worte.')).code).toBe(0);
    const show = async (lang?: string) =>
      (await run(messageShow(t.waitlistId, 'welcome', lang))).json as {
        subject: string;
        lang: string;
        from?: string;
        enabled: boolean;
        preview: { text: string; html: string };
      };
    expect(await show()).toMatchObject({ subject: 'Own', lang: '', enabled: true });
    expect(await show('de')).toMatchObject({
      subject: 'Eigene',
      lang: 'de',
      from: 'language',
      enabled: true,
    });
    expect(await show('en')).toMatchObject({ subject: 'Own', lang: 'en', from: 'waitlist' });
    const he = await show('he');
    expect(he).toMatchObject({ ...defaultTemplate('welcome', 'he'), lang: 'he', from: 'default' });
    expect(he.preview.text).toContain(String(say('he')('stopEmails', { link: '' })).trim());
    expect(htmlTag(he.preview.html)).toBe('<html lang="he" dir="rtl">');
    await signUp(t, 'own-en@example.com', 'en');
    await signUp(t, 'own-none@example.com');
    await signUp(t, 'own-pt@example.com', 'pt');
    expect((await mailTo('own-en@example.com', 'the waitlist’s own, in English')).subject).toBe('Own');
    expect((await mailTo('own-none@example.com', 'the waitlist’s own, by default_lang')).subject).toBe('Own');
    expect((await mailTo('own-pt@example.com', 'our Portuguese')).subject).toBe(
      defaultTemplate('welcome', 'pt').subject.replace('{{waitlist_name}}', 'Launch'),
    );

    // Off on one version is off on all.
    const off = join(files.dir, `off-${Math.random().toString(36).slice(2)}.txt`);
    writeFileSync(off, 'Aus.');
    const args = [...base, '--lang', 'de', '--subject', 'Aus', '--body-file', off, '--off'];
    expect((await run(['message', 'set', ...args])).code).toBe(0);
    expect(await show()).toMatchObject({ enabled: false });
    expect(await show('ja')).toMatchObject({ from: 'default', enabled: false });
    expect(await show('en')).toMatchObject({ from: 'waitlist', enabled: false });
  });

  it('message show --lang of a message never saved shows our default in that language', async () => {
    const t = await h.tenant({ waitlist: ['--origins', ORIGIN] });
    const shown = await run([
      'message',
      'show',
      '--waitlist',
      t.waitlistId,
      '--kind',
      'admitted',
      '--lang',
      'ar',
    ]);
    expect(shown.code).toBe(0);
    expect(shown.json).toMatchObject({
      ...defaultTemplate('admitted', 'ar'),
      lang: 'ar',
      from: 'default',
      enabled: false,
    });
  });

  it('message set and show refuse a --lang that is not a supported tag exactly, naming the option, saving nothing', async () => {
    const t = await h.tenant({ waitlist: ['--origins', ORIGIN] });
    for (const bad of ['xx', 'DE', 'de-DE', 'pt_BR', '', ' de', 'de\n', "de'--", 'a'.repeat(300)]) {
      const set = await setMessage(t, 'welcome', bad, 'S', 'B');
      expect([set.code, set.error?.code]).toEqual([2, 'usage_error']);
      expect(set.error?.message).toContain('--lang');
      const show = await run(messageShow(t.waitlistId, 'welcome', bad));
      expect([show.code, show.error?.code]).toEqual([2, 'usage_error']);
    }
    const shown = await run(['message', 'show', '--waitlist', t.waitlistId, '--kind', 'welcome']);
    expect(shown.json).toMatchObject({ subject: '', enabled: false, updated_at: null });
  });
});
