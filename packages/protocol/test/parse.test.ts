import { describe, expect, it } from 'vitest';
import {
  AcceptedSignupSchema,
  ChallengeRequiredSchema,
  ErrorBodySchema,
  LANGUAGES,
  ListPageSchema,
  parseAdmissionsBody,
  parseApiCreateBody,
  parseIdempotencyKey,
  parseListQuery,
  parsePublicSubscribeBody,
} from '../src/index.js';

describe('parsePublicSubscribeBody', () => {
  it('accepts a full body and normalises the email', () => {
    const parsed = parsePublicSubscribeBody({
      email: ' Ada@Bücher.example ',
      referral_code: 'abc234',
      challenge_token: 't',
      pow: { nonce: 'n', solution: 12 },
      ignored: true,
    });
    expect(parsed).toEqual({
      ok: true,
      value: {
        email: 'Ada@Bücher.example',
        normalized_email: 'ada@xn--bcher-kva.example',
        email_domain: 'xn--bcher-kva.example',
        referral_code: 'abc234',
        challenge_token: 't',
        pow: { nonce: 'n', solution: 12 },
      },
    });
  });

  it.each([
    [null, 'The body must be an object, not null.'],
    [[], 'The body must be an object, not an array.'],
    ['a@b.co', 'The body must be an object, not a string.'],
    [{}, '`email` is required.'],
    [{ email: 42 }, '`email` must be a string, not a number.'],
    [{ email: 'a@b.co', pow: 'x' }, '`pow` must be an object, not a string.'],
    [{ email: 'a@b.co', pow: { nonce: 'n' } }, '`pow.solution` is required.'],
    [
      { email: 'a@b.co', pow: { nonce: 'n', solution: 1.5 } },
      '`pow.solution` must be an integer, not a number.',
    ],
    [{ email: 'a@b.co', pow: { nonce: 'n', solution: -1 } }, '`pow.solution` must be at least 0.'],
    [
      { email: 'a@b.co', pow: { nonce: 'n'.repeat(257), solution: 1 } },
      '`pow.nonce` must be at most 256 characters long.',
    ],
    [{ email: 'a@b.co', referral_code: null }, '`referral_code` must be a string, not null.'],
  ])('answers invalid_request for %j', (body, message) => {
    expect(parsePublicSubscribeBody(body)).toEqual({
      ok: false,
      error: { code: 'invalid_request', message },
    });
  });

  it('answers invalid_email for a string that is not an address', () => {
    expect(parsePublicSubscribeBody({ email: 'nope' })).toEqual({
      ok: false,
      error: { code: 'invalid_email', message: 'The email address has no "@".' },
    });
  });
});

describe('lang on both create bodies', () => {
  const tags = `${LANGUAGES.map((l) => JSON.stringify(l)).join(', ')}`;

  it('takes a supported tag exactly, and leaves it out when absent', () => {
    for (const parse of [parsePublicSubscribeBody, parseApiCreateBody]) {
      expect(parse({ email: 'a@b.co', lang: 'zh-Hant' })).toMatchObject({
        ok: true,
        value: { lang: 'zh-Hant' },
      });
      const without = parse({ email: 'a@b.co' });
      expect(without.ok && 'lang' in without.value).toBe(false);
    }
  });

  it.each([
    ['a region tag', 'pt-BR'],
    ['another case', 'EN'],
    ['a language we lack', 'sw'],
    ['__proto__', '__proto__'],
    ['an empty string', ''],
    ['10 KB', 'x'.repeat(10_240)],
    ['a number', 42],
    ['null', null],
    ['an array', ['en']],
  ])('refuses %s naming `lang` and the tags it takes', (_, lang) => {
    for (const parse of [parsePublicSubscribeBody, parseApiCreateBody]) {
      expect(parse({ email: 'a@b.co', lang })).toEqual({
        ok: false,
        error: { code: 'invalid_request', message: `\`lang\` must be one of ${tags}.` },
      });
    }
  });
});

describe('parseApiCreateBody', () => {
  it('upper-cases the country and rejects what is not a country code', () => {
    expect(parseApiCreateBody({ email: 'a@b.co', client_country: 'us' })).toMatchObject({
      ok: true,
      value: { client_country: 'US' },
    });
    expect(parseApiCreateBody({ email: 'a@b.co', client_country: 'USA' })).toEqual({
      ok: false,
      error: {
        code: 'invalid_request',
        message: '`client_country` must be a two-letter ISO 3166-1 country code.',
      },
    });
  });
});

describe('parseListQuery', () => {
  it('applies defaults and clamps the limit', () => {
    expect(parseListQuery({})).toEqual({
      ok: true,
      value: { page: 1, limit: 25, q: '', status: 'waiting', channel: '' },
    });
    expect(
      parseListQuery({ page: '3', limit: '500', q: '50%_', status: 'admitted', channel: 'newsletter' }),
    ).toEqual({
      ok: true,
      value: { page: 3, limit: 200, q: '50%_', status: 'admitted', channel: 'newsletter' },
    });
    expect(parseListQuery({ channel: '' })).toEqual({
      ok: false,
      error: { code: 'invalid_request', message: '`channel` must be at least 1 characters long.' },
    });
    expect(parseListQuery({ status: 'gone' })).toEqual({
      ok: false,
      error: { code: 'invalid_request', message: '`status` must be one of "waiting", "admitted".' },
    });
  });

  it('takes exactly one of count and subscriber_ids for an admission', () => {
    expect(parseAdmissionsBody({ count: 10 })).toEqual({ ok: true, value: { count: 10 } });
    expect(parseAdmissionsBody({ subscriber_ids: ['sub_a', 'sub_b', 'sub_a'] })).toEqual({
      ok: true,
      value: { subscriberIds: ['sub_a', 'sub_b'] },
    });
    for (const body of [{}, { count: 1, subscriber_ids: ['sub_a'] }]) {
      expect(parseAdmissionsBody(body)).toEqual({
        ok: false,
        error: { code: 'invalid_request', message: 'Give exactly one of `count` and `subscriber_ids`.' },
      });
    }
    for (const body of [
      { count: 0 },
      { count: 1001 },
      { count: 2.5 },
      { count: '3' },
      { subscriber_ids: [] },
      null,
      [],
    ]) {
      expect(parseAdmissionsBody(body)).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    }
    expect(parseAdmissionsBody({ subscriber_ids: Array(1001).fill('sub_a') })).toMatchObject({ ok: false });
  });

  it('takes an Idempotency-Key of 1 to 255 printable ASCII characters', () => {
    expect(parseIdempotencyKey(undefined)).toEqual({ ok: true, value: undefined });
    expect(parseIdempotencyKey('order-42 retry')).toEqual({ ok: true, value: 'order-42 retry' });
    expect(parseIdempotencyKey('x'.repeat(255))).toMatchObject({ ok: true });
    for (const bad of ['', 'x'.repeat(256), 'tab\there', 'ünïcode']) {
      expect(parseIdempotencyKey(bad)).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    }
  });

  it.each([
    [{ page: '0' }, '`page` must be a whole number from 1.'],
    [{ page: '-1' }, '`page` must be a whole number from 1.'],
    [{ page: '1.5' }, '`page` must be a whole number from 1.'],
    [{ page: '1e3' }, '`page` must be a whole number from 1.'],
    [{ page: ' 2' }, '`page` must be a whole number from 1.'],
    [{ page: '' }, '`page` must be a whole number from 1.'],
    [{ limit: '9999999999' }, '`limit` must be a whole number from 1.'],
    [{ page: ['1', '2'] }, '`page` must be given once.'],
    [{ q: 'x'.repeat(255) }, '`q` must be at most 254 characters long.'],
  ])('rejects %j', (query, message) => {
    expect(parseListQuery(query)).toEqual({ ok: false, error: { code: 'invalid_request', message } });
  });
});

describe('response schemas', () => {
  it('accept the shapes of docs/endpoints.md#endpoints and name what is wrong otherwise', () => {
    expect(
      AcceptedSignupSchema.safeParse({
        status: 'accepted',
        status_token: '',
        referral_code: '',
        status_url: '',
      }).success,
    ).toBe(true);
    expect(
      ChallengeRequiredSchema.safeParse({
        status: 'challenge_required',
        gate: 'pow',
        pow: { nonce: 'n', difficulty: 18 },
      }).success,
    ).toBe(true);
    expect(
      ChallengeRequiredSchema.safeParse({ status: 'challenge_required', gate: 'pow', challenge: {} }).success,
    ).toBe(false);
    expect(ErrorBodySchema.safeParse({ error: { code: 'unauthorized', message: 'x' } }).success).toBe(true);
    const page = ListPageSchema.safeParse({
      items: [
        {
          id: 'sub_1',
          email: 'a@b.co',
          joined_at: '2026-11-21T10:00:00.000Z',
          position: 0,
          referral_code: '',
          referral_count: 0,
        },
      ],
      total: 1,
      page: 1,
      limit: 25,
    });
    expect(page.success).toBe(false);
    expect(page.error?.issues[0]?.path).toEqual(['items', 0, 'position']);
  });
});
