import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { channelOf, keptSource, pageAddress, SourceSchema } from '../src/index.js';

describe('the source of a sign-up', () => {
  it('takes the seven keys, each a string of at most 200 characters', () => {
    const source = {
      utm_source: 'newsletter',
      utm_medium: 'email',
      utm_campaign: 'launch',
      utm_term: 'waitlist',
      utm_content: 'hero',
      referrer: 'https://news.example/item?id=1',
      landing: 'https://acme.example/?utm_source=newsletter',
    };
    expect(z.safeParse(SourceSchema, source).success).toBe(true);
    expect(z.safeParse(SourceSchema, {}).success).toBe(true);
  });

  it.each([
    ['an unknown key', { gclid: 'x' }],
    ['an object for a value', { utm_source: { a: 1 } }],
    ['an array', ['utm_source']],
    ['201 characters', { utm_campaign: 'x'.repeat(201) }],
    ['a string of a megabyte', { utm_term: 'x'.repeat(1 << 20) }],
    ['a javascript: URL', { referrer: 'javascript:alert(1)' }],
    ['a data: URL', { landing: 'data:text/html,hi' }],
    ['a page that is not a URL', { landing: 'acme.example/page' }],
  ])('refuses %s', (_, source) => {
    expect(z.safeParse(SourceSchema, source).success).toBe(false);
  });

  it('keeps page addresses as origin and path, dropping query, fragment and credentials', () => {
    expect(pageAddress('https://user:pw@Acme.example:8443/a/b?email=ada@x.example#top')).toBe(
      'https://acme.example:8443/a/b',
    );
    expect(pageAddress('http://acme.example')).toBe('http://acme.example/');
    expect(pageAddress('ftp://acme.example/')).toBeUndefined();
    expect(pageAddress('not a url')).toBeUndefined();
    expect(
      keptSource({
        utm_source: 'x',
        utm_medium: '',
        referrer: 'https://r.example/p?q=1',
        landing: 'javascript:x',
      }),
    ).toEqual({ utm_source: 'x', referrer: 'https://r.example/p' });
  });
});

describe('the channel of a sign-up', () => {
  it('is referral when a referrer was credited, whatever the source says', () => {
    expect(channelOf({ utm_source: 'ads' }, true)).toBe('referral');
  });

  it("is utm_source's value, else the referring host when it is not the landing page's, else direct", () => {
    expect(channelOf({ utm_source: 'newsletter', referrer: 'https://news.example/' }, false)).toBe(
      'newsletter',
    );
    expect(channelOf({ referrer: 'https://news.example/a', landing: 'https://acme.example/' }, false)).toBe(
      'news.example',
    );
    expect(
      channelOf({ referrer: 'https://acme.example/blog', landing: 'https://acme.example/' }, false),
    ).toBe('direct');
    expect(channelOf({ referrer: 'https://news.example/a' }, false)).toBe('news.example');
    expect(channelOf({}, false)).toBe('direct');
    expect(channelOf({ referrer: 'javascript:x' }, false)).toBe('direct');
  });
});
