/** The pure rules of webhook delivery: destinations, what a tenant is told of a failure, the retry schedule. */
import { describe, expect, it } from 'vitest';
import { DELIVERY_ERRORS, deliveryError, SENDER_CODES } from '../src/domain/delivery-errors.js';
import {
  addressVerdict,
  checkWebhookUrl,
  fixedAddresses,
  isPublicAddress,
  resolvedVerdict,
} from '../src/domain/destinations.js';
import { DEFAULT_RETRY_SCHEDULE_S, nextAttemptAt, parseRetrySchedule } from '../src/domain/retry-schedule.js';

describe('destinations', () => {
  it.each([
    '127.0.0.1',
    '127.255.0.9',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fe80::1',
    'fc00::1',
    'fd12:3456::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    '::ffff:7f00:1',
    'ff02::1',
    '2001:db8::1',
  ])('refuses %s', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '172.32.0.1',
    '172.15.255.255',
    '100.128.0.1',
    '2606:4700:4700::1111',
    '::ffff:8.8.8.8',
  ])('accepts %s', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it('refuses non-addresses', () => {
    expect(isPublicAddress('example.com')).toBe(false);
    expect(isPublicAddress('')).toBe(false);
  });

  it('takes https URLs only, without credentials, and no private literal hosts', () => {
    expect(checkWebhookUrl('https://hooks.example.com/x', false)).toMatchObject({ ok: true });
    expect(checkWebhookUrl('http://hooks.example.com/x', false)).toEqual({
      ok: false,
      reason: 'A webhook URL must use https.',
    });
    expect(checkWebhookUrl('http://127.0.0.1:9/x', true)).toMatchObject({ ok: true });
    expect(checkWebhookUrl('https://user:pw@hooks.example.com/', false)).toMatchObject({ ok: false });
    expect(checkWebhookUrl('https://127.0.0.1/', false)).toEqual({
      ok: false,
      reason: '127.0.0.1 is not a public address.',
    });
    expect(checkWebhookUrl('https://[::1]/', false)).toEqual({
      ok: false,
      reason: '::1 is not a public address.',
    });
    expect(checkWebhookUrl('ftp://hooks.example.com/', false)).toMatchObject({ ok: false });
    expect(checkWebhookUrl('not a url', false)).toMatchObject({ ok: false });
    expect(checkWebhookUrl(`https://hooks.example.com/${'x'.repeat(2000)}`, false)).toMatchObject({
      ok: false,
    });
  });

  it('refuses a name that resolves to any private address, without naming the address', () => {
    expect(resolvedVerdict(['8.8.8.8'], false)).toBeUndefined();
    expect(resolvedVerdict(['8.8.8.8', '10.0.0.1'], false)).toBe(
      'The host name resolves to an address that is not public.',
    );
    expect(resolvedVerdict(['10.0.0.1'], true)).toBeUndefined();
    expect(resolvedVerdict([], true)).toBe('The host name does not resolve.');
    expect(addressVerdict(['8.8.8.8', '::ffff:127.0.0.1'], false)).toBe('not_public');
    expect(addressVerdict(['2606:4700:4700::1111'], false)).toBeUndefined();
    expect(addressVerdict([], false)).toBe('no_address');
    expect(addressVerdict([], true)).toBe('no_address');
  });

  it('asks no nameserver about an IP literal or localhost', () => {
    expect(fixedAddresses('93.184.215.14')).toEqual(['93.184.215.14']);
    expect(fixedAddresses('[::1]')).toEqual(['::1']);
    expect(fixedAddresses('localhost')).toEqual(['127.0.0.1', '::1']);
    expect(fixedAddresses('Api.LOCALHOST.')).toEqual(['127.0.0.1', '::1']);
    expect(fixedAddresses('localhost.example.com')).toBeUndefined();
    expect(fixedAddresses('hooks.example.com')).toBeUndefined();
  });
});

describe('what a tenant is told of a failed attempt', () => {
  it.each([
    [SENDER_CODES.notPublic, 'not_public'],
    [SENDER_CODES.noAddress, 'no_address'],
    [SENDER_CODES.timedOut, 'timed_out'],
    ['ETIMEDOUT', 'timed_out'],
    ['ECONNREFUSED', 'unreachable'],
    ['ECONNRESET', 'unreachable'],
    ['EHOSTUNREACH', 'unreachable'],
    ['ENETUNREACH', 'unreachable'],
    ['EPIPE', 'unreachable'],
    [undefined, 'unreachable'],
    ['CERT_HAS_EXPIRED', 'tls'],
    ['DEPTH_ZERO_SELF_SIGNED_CERT', 'tls'],
    ['UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'tls'],
    ['ERR_TLS_CERT_ALTNAME_INVALID', 'tls'],
    ['EPROTO', 'tls'],
    ['HPE_INVALID_CONSTANT', 'not_http'],
  ] as const)('%s → %s', (code, kind) => {
    expect(deliveryError(code)).toBe(kind);
  });

  it('is one of a few fixed sentences that name no address, port or system code', () => {
    const sentences = Object.values(DELIVERY_ERRORS);
    expect(new Set(sentences).size).toBe(sentences.length);
    for (const sentence of sentences) {
      expect(sentence).toMatch(/^The destination/);
      expect(sentence).not.toMatch(/\d|E[A-Z]{4,}/);
    }
  });
});

describe('retry schedule', () => {
  it('is the contract’s by default, and replaced by the environment', () => {
    expect(parseRetrySchedule(undefined)).toEqual(DEFAULT_RETRY_SCHEDULE_S.map((s) => s * 1000));
    expect(DEFAULT_RETRY_SCHEDULE_S).toEqual([5, 300, 1800, 7200, 18000, 36000, 36000]);
    expect(parseRetrySchedule('0, 1,2')).toEqual([0, 1000, 2000]);
    for (const bad of ['a', '1,,2', '-1', '1.5', `${'1,'.repeat(60)}1`]) {
      expect(() => parseRetrySchedule(bad)).toThrow(/WAITLIST_WEBHOOK_RETRY_SCHEDULE/);
    }
  });

  it('retries after each step, then gives up', () => {
    const schedule = parseRetrySchedule(undefined);
    expect(nextAttemptAt(schedule, 1, 1000)).toBe(6000);
    expect(nextAttemptAt(schedule, 7, 0)).toBe(36_000_000);
    expect(nextAttemptAt(schedule, 8, 0)).toBeUndefined();
  });
});
