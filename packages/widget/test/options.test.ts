import { describe, expect, it } from 'vitest';
import { en, format, mergeLocale } from '../src/ui/locale.js';
import { attributeName, optionsFromAttributes, resolveOptions } from '../src/ui/options.js';
import { readReferral, safeLink, shareLink } from '../src/ui/referral.js';

const good = { waitlistId: 'wl_0123456789abcdef', baseUrl: 'https://api.example.com/' };
const fromAttributes = (attributes: Record<string, string>, prefix = '') => {
  const problems: string[] = [];
  const nameOf = attributeName(prefix);
  const options = optionsFromAttributes((name) => attributes[name] ?? null, problems, nameOf);
  const config = resolveOptions(options, problems, nameOf);
  return { config, problems };
};

describe('resolveOptions', () => {
  it('accepts good options and fills the defaults', () => {
    const problems: string[] = [];
    expect(resolveOptions(good, problems)).toEqual({
      waitlistId: 'wl_0123456789abcdef',
      baseUrl: 'https://api.example.com',
      theme: 'auto',
      refParam: 'ref',
      // The page's texts only: the language's (English built in) are filled in by the form.
      locale: {},
      lang: undefined,
      prepare: 'focus',
      attribution: true,
      fetch: undefined,
      workers: undefined,
    });
    expect(problems).toEqual([]);
  });

  it('keeps a path prefix of the base URL and drops its query and fragment', () => {
    expect(resolveOptions({ ...good, baseUrl: 'https://x.test/waitlist/?a=1#b' }, [])?.baseUrl).toBe(
      'https://x.test/waitlist',
    );
  });

  it('refuses a missing or malformed waitlist id, and a base URL that is not http(s)', () => {
    const cases: [object, RegExp][] = [
      [{ baseUrl: good.baseUrl }, /waitlistId is missing/],
      [{ ...good, waitlistId: 'list_1' }, /waitlistId "list_1" is not a waitlist id/],
      [{ ...good, waitlistId: 'wl_a/../../admin' }, /is not a waitlist id/],
      [{ ...good, baseUrl: '' }, /baseUrl is missing/],
      [
        { ...good, baseUrl: 'javascript:alert(1)' },
        /baseUrl "javascript:alert\(1\)" is not an http\(s\) address/,
      ],
      [{ ...good, baseUrl: 'https://user:pw@api.example.com' }, /not an http\(s\) address/],
      [{ ...good, baseUrl: 'not a url' }, /not an http\(s\) address/],
    ];
    for (const [input, message] of cases) {
      const problems: string[] = [];
      expect(resolveOptions(input as typeof good, problems)).toBeUndefined();
      expect(problems.join(' ')).toMatch(message);
    }
  });

  it('reports unknown themes and bad parameter names, and goes on with the defaults', () => {
    const problems: string[] = [];
    const config = resolveOptions({ ...good, theme: 'purple' as 'auto', refParam: 'r f' }, problems);
    expect(config).toMatchObject({ theme: 'auto', refParam: 'ref' });
    expect(problems).toEqual([
      'theme "purple" is not one of auto, light, dark; using auto.',
      'refParam "r f" is not a query parameter name (letters, digits, _ . -); using ref.',
    ]);
  });

  it('prepares on focus unless told visible; reports any other value, as an option and as an attribute', () => {
    expect(resolveOptions({ ...good, prepare: 'visible' }, [])?.prepare).toBe('visible');
    const problems: string[] = [];
    expect(resolveOptions({ ...good, prepare: 'load' as 'focus' }, problems)?.prepare).toBe('focus');
    expect(problems).toEqual(['prepare "load" is not one of focus, visible; using focus.']);
    const tag = fromAttributes(
      { 'waitlist-id': good.waitlistId, 'base-url': good.baseUrl, prepare: 'VISIBLE' },
      'data-',
    );
    expect(tag.config?.prepare).toBe('focus');
    expect(tag.problems).toEqual(['data-prepare "VISIBLE" is not one of focus, visible; using focus.']);
    expect(
      fromAttributes({ 'waitlist-id': good.waitlistId, 'base-url': good.baseUrl, prepare: 'visible' }).config
        ?.prepare,
    ).toBe('visible');
  });

  it('sends the page’s source unless attribution is false or off; reports any other value, as an option and as an attribute', () => {
    const tag = (attribution: string) =>
      fromAttributes({ 'waitlist-id': good.waitlistId, 'base-url': good.baseUrl, attribution }, 'data-');
    expect(resolveOptions({ ...good, attribution: false }, [])?.attribution).toBe(false);
    expect(tag('off')).toEqual({ config: expect.objectContaining({ attribution: false }), problems: [] });
    expect(tag('on')).toEqual({ config: expect.objectContaining({ attribution: true }), problems: [] });
    expect(
      fromAttributes({ 'waitlist-id': good.waitlistId, 'base-url': good.baseUrl }).config?.attribution,
    ).toBe(true);
    for (const value of ['', 'OFF', 'false', 'no', 'x'.repeat(10_000)]) {
      const { config, problems } = tag(value);
      expect(config?.attribution).toBe(true);
      expect(problems).toHaveLength(1);
      expect(problems[0]).toMatch(/^data-attribution .* is not one of true, false, on, off; using true\.$/);
      expect(problems[0]?.length).toBeLessThan(200);
    }
    const problems: string[] = [];
    expect(resolveOptions({ ...good, attribution: 'off' as unknown as boolean }, problems)?.attribution).toBe(
      false,
    );
    expect(resolveOptions({ ...good, attribution: 0 as unknown as boolean }, problems)?.attribution).toBe(
      true,
    );
    expect(problems).toEqual(['attribution 0 is not one of true, false, on, off; using true.']);
  });

  it('shortens hostile values in its messages', () => {
    const problems: string[] = [];
    resolveOptions({ ...good, waitlistId: `wl_${'x'.repeat(100_000)}` }, problems);
    expect(problems[0]?.length).toBeLessThan(200);
  });
});

describe('locale', () => {
  it('merges known keys with text values; reports the rest', () => {
    const problems: string[] = [];
    const locale = mergeLocale(
      en,
      { label: 'E-Mail', button: 7, nope: 'x', success: 'y'.repeat(501) },
      problems,
    );
    expect(locale).toEqual({ ...en, label: 'E-Mail' });
    expect(problems).toEqual([
      'locale.button must be a text of at most 500 characters.',
      'locale has an unknown key "nope".',
      'locale.success must be a text of at most 500 characters.',
    ]);
    expect(mergeLocale(en, 'de', problems)).toEqual(en);
  });

  it('fills placeholders', () => {
    expect(format(en.rateLimited, { seconds: 42 })).toBe('Too many attempts. Try again in 42 s.');
    expect(format('{a} {b}', { a: 1 })).toBe('1 {b}');
  });
});

describe('attributes', () => {
  it('reads the element’s attributes, texts included', () => {
    const { config, problems } = fromAttributes({
      'waitlist-id': good.waitlistId,
      'base-url': good.baseUrl,
      theme: 'dark',
      'ref-param': 'invite',
      label: 'Your email',
      button: 'Notify me',
    });
    expect(problems).toEqual([]);
    expect(config).toMatchObject({ theme: 'dark', refParam: 'invite' });
    expect(config?.locale).toEqual({ label: 'Your email', button: 'Notify me' });
  });

  it('takes a whole locale as JSON, the single text attributes winning', () => {
    const { config } = fromAttributes({
      'waitlist-id': good.waitlistId,
      'base-url': good.baseUrl,
      locale: JSON.stringify({ label: 'Adresse', button: 'Inscription' }),
      button: 'Go',
    });
    expect(config?.locale).toMatchObject({ label: 'Adresse', button: 'Go' });
  });

  it('names the attributes as the page wrote them in its messages', () => {
    expect(fromAttributes({}, 'data-').problems).toEqual([
      "data-waitlist-id is missing: give the waitlist's id (wl_…) from its setup page.",
      "data-base-url is missing: give the waitlist service's address (https://…).",
    ]);
  });

  it('survives hostile values: bad JSON, prototype keys, huge texts', () => {
    const { config, problems } = fromAttributes({
      'waitlist-id': good.waitlistId,
      'base-url': good.baseUrl,
      locale: '{"__proto__": {"polluted": true}, "label": "<b>x</b>"}',
      button: 'b'.repeat(10_000),
    });
    expect(config?.locale.label).toBe('<b>x</b>');
    expect(config?.locale.button).toBeUndefined();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(problems).toEqual([
      'locale has an unknown key "__proto__".',
      'locale.button must be a text of at most 500 characters.',
    ]);
    expect(
      fromAttributes({ ...{ 'waitlist-id': good.waitlistId, 'base-url': good.baseUrl }, locale: '{' })
        .problems,
    ).toEqual(['locale is not valid JSON.']);
    expect(
      fromAttributes({ ...{ 'waitlist-id': good.waitlistId, 'base-url': good.baseUrl }, locale: '[1]' })
        .problems,
    ).toEqual(['locale must be a JSON object of texts.']);
  });
});

describe('referral links', () => {
  it('reads ?ref (or the configured name) when it can be a code', () => {
    expect(readReferral('https://site.example/?ref=k7m2qx', 'ref')).toBe('K7M2QX');
    expect(readReferral('https://site.example/?invite=K7M2QX', 'invite')).toBe('K7M2QX');
    expect(readReferral('https://site.example/?ref=K7M2QX', 'invite')).toBeUndefined();
    expect(readReferral('https://site.example/?ref=<script>', 'ref')).toBeUndefined();
    expect(readReferral('about:blank', 'ref')).toBeUndefined();
  });

  it('builds the share link from the page address, replacing an older code and the fragment', () => {
    expect(shareLink('https://site.example/launch?utm=x&ref=AAAAAA#top', 'ref', 'K7M2QX')).toBe(
      'https://site.example/launch?utm=x&ref=K7M2QX',
    );
  });

  it('only links http(s) status pages', () => {
    expect(safeLink('https://app.example/s/tok')).toBe('https://app.example/s/tok');
    expect(safeLink('javascript:alert(1)')).toBeUndefined();
    expect(safeLink('')).toBeUndefined();
  });
});
