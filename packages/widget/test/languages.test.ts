// @vitest-environment happy-dom
/**
 * The form in the visitor's language (docs/languages.md#the-widget): which language it picks,
 * its locale file fetched beside the first render and checked whole, the page's texts winning,
 * right to left, plural forms and numbers, and the `lang` the sign-up sends. Each test asks for
 * a language of its own: a page load fetches a locale file once, whatever happens to it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { HttpResponse, http } from 'msw';
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest';
import { DEFAULT_TAG, defineWaitlistElement } from '../src/ui/element.js';
import { en, format } from '../src/ui/locale.js';
import { LOCALE_WAIT_MS } from '../src/ui/locale-file.js';
import { mount, type WaitlistHandle } from '../src/ui/mount.js';
import {
  attributeName,
  type MountOptions,
  optionsFromAttributes,
  resolveOptions,
} from '../src/ui/options.js';
import { BASE_URL, fakeService, WAITLIST_ID } from './support/fake-service.js';
import { pageService } from './support/page-service.js';

const { server } = pageService();
const LOCALES = `${BASE_URL}/widget/locales/:file`;
const locale = (tag: string) =>
  JSON.parse(readFileSync(join(import.meta.dirname, '../src/locales', `${tag}.json`), 'utf8'));

/** Serves the locale files as the service does, counting the requests for each. */
function localeFiles(answer: (tag: string) => Response | undefined = () => undefined) {
  const asked: string[] = [];
  server.use(
    http.get(LOCALES, ({ params }) => {
      const tag = String(params.file).replace(/\.json$/, '');
      asked.push(tag);
      return (
        answer(tag) ?? HttpResponse.json(locale(tag), { headers: { 'access-control-allow-origin': '*' } })
      );
    }),
  );
  return asked;
}

let hosts: HTMLElement[] = [];
let handles: WaitlistHandle[] = [];
let warnings: MockInstance<typeof console.warn>;
let errors: MockInstance<typeof console.error>;
beforeEach(() => {
  window.happyDOM.setURL('https://site.example/launch');
  warnings = vi.spyOn(console, 'warn').mockImplementation(() => {});
  errors = vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  vi.useRealTimers();
  for (const handle of handles) handle.destroy();
  for (const host of hosts) host.remove();
  hosts = [];
  handles = [];
  document.documentElement.lang = '';
  document.body.innerHTML = '';
  server.resetHandlers();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

function open(options: Partial<MountOptions> = {}) {
  const host = document.createElement('div');
  document.body.append(host);
  hosts.push(host);
  handles.push(mount(host, { waitlistId: WAITLIST_ID, baseUrl: BASE_URL, ...options }));
  const $ = <T extends Element = HTMLElement>(selector: string) =>
    (host.shadowRoot as ShadowRoot).querySelector<T>(selector);
  return {
    $,
    label: () => $('label')?.textContent,
    status: () => $('[part=status]')?.textContent,
    root: () => $('.w') as HTMLElement,
    submit: (email = 'ada@example.com') => {
      ($('input') as HTMLInputElement).value = email;
      ($<HTMLFormElement>('form') as HTMLFormElement).requestSubmit();
    },
  };
}
const warned = () => warnings.mock.calls.map((call) => call.join(' ')).join('\n');
const logged = () => errors.mock.calls.map((call) => call.join(' ')).join('\n');
/** The browser's preferred languages, as happy-dom cannot be told them. */
const browserLanguages = (languages: string[]) =>
  vi.spyOn(navigator, 'languages', 'get').mockReturnValue(Object.freeze(languages) as never);

describe('choosing the language', () => {
  const fromAttributes = (attributes: Record<string, string>) => {
    const problems: string[] = [];
    const nameOf = attributeName('data-');
    const options = optionsFromAttributes((name) => attributes[name] ?? null, problems, nameOf);
    const config = resolveOptions(
      { ...options, waitlistId: WAITLIST_ID, baseUrl: BASE_URL },
      problems,
      nameOf,
    );
    return { lang: config?.lang, problems };
  };

  it('takes data-lang as a language, whatever its region or case', () => {
    expect(fromAttributes({ lang: 'de' })).toEqual({ lang: 'de', problems: [] });
    expect(fromAttributes({ lang: 'pt-BR' }).lang).toBe('pt');
    expect(fromAttributes({ lang: 'ZH_tw' }).lang).toBe('zh-Hant');
    expect(fromAttributes({ lang: 'iw' }).lang).toBe('he');
    expect(fromAttributes({}).lang).toBeUndefined();
  });

  it('passes over a data-lang of garbage, of 10 KB, of a language it lacks, or empty, with a hint naming it', () => {
    for (const bad of ['<script>', 'x'.repeat(10_000), 'xx', 'tlh', '', 'de-']) {
      const { lang, problems } = fromAttributes({ lang: bad });
      expect(lang).toBeUndefined();
      expect(problems).toHaveLength(1);
      expect(problems[0]).toMatch(
        /^data-lang ".*(…|") is not a language the widget speaks; using the page's/,
      );
      expect(problems[0]?.length).toBeLessThan(200);
    }
    const problems: string[] = [];
    expect(
      resolveOptions({ waitlistId: WAITLIST_ID, baseUrl: BASE_URL, lang: 7 as never }, problems)?.lang,
    ).toBe(undefined);
    expect(problems).toEqual([
      "lang 7 is not a language the widget speaks; using the page's or the browser's.",
    ]);
  });

  it('without one, speaks the page’s <html lang>', async () => {
    const asked = localeFiles();
    document.documentElement.lang = 'de-AT';
    const form = open();
    await vi.waitFor(() => expect(form.label()).toBe('E-Mail-Adresse'));
    expect(asked).toEqual(['de']);
  });

  it('without either, the browser’s first language it speaks', async () => {
    const asked = localeFiles();
    browserLanguages(['tlh', 'x-private', 'pt-BR', 'fr', 'en']);
    const form = open();
    await vi.waitFor(() => expect(form.label()).toBe('Endereço de e-mail'));
    expect(asked).toEqual(['pt']);
  });

  it('passes over an empty or unusable <html lang>, and a data-lang it lacks, to the next choice', async () => {
    const asked = localeFiles();
    browserLanguages(['ca-ES']);
    document.documentElement.lang = '';
    const first = open();
    await vi.waitFor(() => expect(first.label()).toBe('Adreça electrònica'));
    document.documentElement.lang = 'klingon!';
    const second = open({ lang: 'xx' });
    await vi.waitFor(() => expect(second.label()).toBe('Adreça electrònica'));
    expect(logged()).toContain('lang "xx" is not a language the widget speaks');
    // One file for both forms.
    expect(asked).toEqual(['ca']);
  });

  it('speaks English, built in, when nothing asks for another: no file fetched', async () => {
    const asked = localeFiles();
    browserLanguages(['en-GB', 'de']);
    const form = open();
    expect(form.label()).toBe(en.label);
    expect(form.root().lang).toBe('en');
    expect(form.root().dir).toBe('ltr');
    // The form's description has arrived, and no locale file was asked for meanwhile.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(asked).toEqual([]);
    expect(open({ lang: 'en-US' }).label()).toBe(en.label);
    expect(asked).toEqual([]);
  });
});

describe('the locale file', () => {
  /**
   * The first render's wait for the file, ended only when the test says: `setTimeout` is faked,
   * and `until` polls on the real one (`vi.waitFor` would advance the fake clock and end the wait).
   */
  const realTimeout = globalThis.setTimeout;
  function waitForFile() {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    return { end: () => vi.advanceTimersByTime(LOCALE_WAIT_MS) };
  }
  async function until(check: () => boolean) {
    for (let tries = 0; !check(); tries++) {
      if (tries === 1_000) throw new Error(`still not so after 1,000 polls: ${check}`);
      await new Promise((resolve) => realTimeout(resolve, 10));
    }
  }

  it('one that comes within the wait is drawn in at once: the form is never English', async () => {
    waitForFile();
    localeFiles();
    const host = document.createElement('div');
    document.body.append(host);
    hosts.push(host);
    const shown: (string | null | undefined)[] = [];
    // Every state the form is drawn in, as a page would see it: the root's language at each change.
    handles.push(mount(host, { waitlistId: WAITLIST_ID, baseUrl: BASE_URL, lang: 'ro' }));
    const root = host.shadowRoot as ShadowRoot;
    shown.push(root.querySelector('.w')?.getAttribute('lang'));
    new MutationObserver(() => shown.push(root.querySelector('.w')?.getAttribute('lang'))).observe(root, {
      subtree: true,
      childList: true,
      attributes: true,
    });
    await until(() => root.querySelector('label')?.textContent === locale('ro').label);
    expect(shown.filter((lang) => lang !== undefined && lang !== null)).not.toContain('en');
    expect(root.querySelector('.w')?.getAttribute('lang')).toBe('ro');
  });

  it('one still on its way when the wait ends: English, then the language', async () => {
    let arrive: () => void = () => {};
    const arrived = new Promise<void>((resolve) => {
      arrive = resolve;
    });
    const asked = localeFiles(() => undefined);
    server.use(
      http.get(LOCALES, async () => {
        asked.push('held');
        await arrived;
        return HttpResponse.json(locale('fr'));
      }),
    );
    const wait = waitForFile();
    const form = open({ lang: 'fr' });
    // Nothing drawn while the file is awaited: then English, while it is still on its way.
    await until(() => asked.length > 0);
    expect(asked).toEqual(['held']);
    expect(form.label()).toBeUndefined();
    wait.end();
    expect(form.label()).toBe(en.label);
    expect(form.root().lang).toBe('en');
    arrive();
    await vi.waitFor(() => expect(form.label()).toBe('Adresse e-mail'));
    expect(form.root().lang).toBe('fr');
    expect(form.$<HTMLInputElement>('input')?.placeholder).toBe('name@example.com');
    expect(form.$('button')?.textContent).toBe('Rejoindre la liste d’attente');
  });

  const refusals: [string, string, () => Response][] = [
    ['404s', 'es', () => HttpResponse.json({ error: { code: 'not_found' } }, { status: 404 })],
    ['answers HTML', 'it', () => HttpResponse.html('<!doctype html><title>Welcome</title>')],
    [
      'is not JSON',
      'nl',
      () => new HttpResponse('{"label": "Adres', { headers: { 'content-type': 'application/json' } }),
    ],
    ['is not an object', 'sv', () => HttpResponse.json(['label'])],
    ['is null', 'da', () => HttpResponse.json(null)],
    ['has an unknown key', 'nb', () => HttpResponse.json({ ...locale('nb'), lable: 'E-post' })],
    ['has a text that is not one', 'fi', () => HttpResponse.json({ ...locale('fi'), button: 42 })],
    [
      'has a plural without `other`',
      'pl',
      () => HttpResponse.json({ ...locale('pl'), rateLimited: { one: 'x {seconds}' } }),
    ],
    ['cannot be fetched (CSP, network)', 'cs', () => HttpResponse.error()],
  ];
  for (const [what, tag, answer] of refusals) {
    it(`that ${what} leaves the form in English, with a hint on the console and none for the visitor`, async () => {
      const asked = localeFiles(answer);
      const form = open({ lang: tag });
      await vi.waitFor(() => expect(warned()).toContain(`/widget/locales/${tag}.json could not be used`));
      expect(warned()).toContain('the form stays in English');
      expect(asked).toEqual([tag]);
      expect(form.label()).toBe(en.label);
      expect(form.root().lang).toBe('en');
      expect(form.status()).toBe('');
      expect(errors).not.toHaveBeenCalled();
    });
  }

  it('is not fetched when the page gives every text itself', async () => {
    const asked = localeFiles();
    const form = open({ lang: 'ko', locale: locale('ko') });
    // Shown in the page's language at once.
    expect(form.label()).toBe('이메일 주소');
    expect(form.root().lang).toBe('ko');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(asked).toEqual([]);
  });
});

describe('the page’s texts', () => {
  it('win over the language’s: the locale option, and each attribute', async () => {
    localeFiles();
    const form = open({ lang: 'ja', locale: { button: '登録する' } });
    await vi.waitFor(() => expect(form.label()).toBe('メールアドレス'));
    expect(form.$('button')?.textContent).toBe('登録する');

    defineWaitlistElement();
    document.body.insertAdjacentHTML(
      'beforeend',
      `<${DEFAULT_TAG} waitlist-id="${WAITLIST_ID}" base-url="${BASE_URL}" lang="ja" button="参加" locale='{"label":"メール"}' text-placeholder="あなた@example.com" text-invalid-email="メールが違います"></${DEFAULT_TAG}>`,
    );
    const element = document.querySelector(DEFAULT_TAG) as HTMLElement;
    const inside = (selector: string) => element.shadowRoot?.querySelector<HTMLInputElement>(selector);
    await vi.waitFor(() => expect(inside('[part=status]')?.getAttribute('role')).toBe('status'));
    await vi.waitFor(() => expect(inside('.w')?.lang).toBe('ja'));
    expect(inside('label')?.textContent).toBe('メール');
    expect(inside('button')?.textContent).toBe('参加');
    expect(inside('input')?.placeholder).toBe('あなた@example.com');
    // The status text nobody overrode is the language's.
    (inside('input') as HTMLInputElement).value = 'nobody';
    (inside('form') as unknown as HTMLFormElement).requestSubmit();
    await vi.waitFor(() => expect(inside('[part=error]')?.textContent).toBe('メールが違います'));
  });

  it('are read from a text- attribute for every text, the older names still working', () => {
    const problems: string[] = [];
    const attributes: Record<string, string> = { label: 'old label', 'text-label': 'new label' };
    for (const key of Object.keys(en)) {
      if (key !== 'label')
        attributes[`text-${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`] = `t:${key}`;
    }
    const options = optionsFromAttributes((name) => attributes[name] ?? null, problems, attributeName(''));
    expect(problems).toEqual([]);
    expect(Object.keys(options.locale ?? {}).sort()).toEqual(Object.keys(en).sort());
    expect(options.locale?.label).toBe('new label');
    expect(options.locale?.tooManyRounds).toBe('t:tooManyRounds');
    expect(
      optionsFromAttributes((n) => (n === 'button' ? 'Go' : null), [], attributeName('')).locale,
    ).toEqual({
      button: 'Go',
    });
  });
});

describe('right to left', () => {
  it('sets dir="rtl" and lang on the form’s root for ar, fa and he, once their texts are shown', async () => {
    localeFiles();
    for (const tag of ['ar', 'fa', 'he']) {
      const form = open({ lang: tag });
      await vi.waitFor(() => expect(form.root().lang).toBe(tag));
      expect(form.root().dir).toBe('rtl');
      expect(form.label()).toBe(locale(tag).label);
    }
    const german = open({ lang: 'de' });
    await vi.waitFor(() => expect(german.root().lang).toBe('de'));
    expect(german.root().dir).toBe('ltr');
  });
});

describe('plurals and numbers', () => {
  it('chooses the plural form by Intl.PluralRules and writes numbers by Intl.NumberFormat', () => {
    const ru = locale('ru').rateLimited;
    expect(format(ru, { seconds: 1 }, 'ru')).toBe('Слишком много попыток. Повторите через 1 секунду.');
    expect(format(ru, { seconds: 3 }, 'ru')).toBe('Слишком много попыток. Повторите через 3 секунды.');
    expect(format(ru, { seconds: 5 }, 'ru')).toBe('Слишком много попыток. Повторите через 5 секунд.');
    expect(format(ru, { seconds: 21 }, 'ru')).toBe('Слишком много попыток. Повторите через 21 секунду.');
    const ar = locale('ar').rateLimited;
    expect(format(ar, { seconds: 2 }, 'ar')).toBe('محاولات كثيرة جدًا. حاول مجددًا بعد ثانيتين.');
    expect(format(ar, { seconds: 3 }, 'ar')).toMatch(/بعد (3|٣) ثوانٍ/);
    // A form the language has but the text does not give: `other`.
    expect(format({ one: 'one {n}', other: 'other {n}' }, { n: 2 }, 'he')).toBe('other 2');
    // Grouping and digits are the language's: "12 345" in French (a narrow no-break space).
    expect(format('{n} personnes', { n: 12_345 }, 'fr')).toBe('12\u202f345 personnes');
    expect(format('{n} people', { n: 12_345 })).toBe('12,345 people');
    expect(format(en.verifying, { percent: 40 }, 'en')).toBe('Verifying… 40%');
    expect(format(locale('tr').verifying, { percent: 40 }, 'tr')).toBe('Doğrulanıyor… %40');
    // A placeholder without a value stays as written.
    expect(format('{a} {b}', { a: 1 }, 'de')).toBe('1 {b}');
  });

  it('counts down a rate limit in the language’s plural forms', async () => {
    localeFiles();
    const fake = fakeService({
      script: [
        {
          status: 429,
          body: { error: { code: 'rate_limit_exceeded', message: '' } },
          headers: { 'Retry-After': '2' },
        },
      ],
    });
    server.use(fake.handler, fake.gates);
    const form = open({ lang: 'de' });
    await vi.waitFor(() => expect(form.label()).toBe('E-Mail-Adresse'));
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    form.submit();
    await vi.waitFor(() =>
      expect(form.status()).toBe('Zu viele Versuche. Bitte in 2 Sekunden erneut versuchen.'),
    );
    await vi.advanceTimersByTimeAsync(1000);
    expect(form.status()).toBe('Zu viele Versuche. Bitte in 1 Sekunde erneut versuchen.');
  });
});

describe('the sign-up', () => {
  it('sends the language the form was shown in as `lang`', async () => {
    localeFiles((tag) => (tag === 'vi' ? HttpResponse.json({}, { status: 404 }) : undefined));
    const fake = fakeService();
    server.use(fake.handler, fake.gates);
    const shown = open({ lang: 'uk' });
    await vi.waitFor(() => expect(shown.label()).toBe('Електронна пошта'));
    shown.submit();
    await vi.waitFor(() => expect(fake.requests).toHaveLength(1));
    expect((fake.requests[0]?.body as { lang?: string } | undefined)?.lang).toBe('uk');
    // Its file missing, the form was read in English.
    const fallen = open({ lang: 'vi' });
    await vi.waitFor(() => expect(warned()).toContain('vi.json could not be used'));
    fallen.submit('grace@example.com');
    await vi.waitFor(() => expect(fake.requests).toHaveLength(2));
    expect((fake.requests[1]?.body as { lang?: string } | undefined)?.lang).toBe('en');
  });
});
