import { describe, expect, it } from 'vitest';
import {
  apiKeyChecksum,
  checkEmail,
  crc32,
  leadingZeroBits,
  normalizeReferralCode,
  parseApiKey,
  powDigest,
  toHex,
  utf8,
  verifyPow,
} from '../src/index.js';
import apiKeys from '../vectors/api-keys.json' with { type: 'json' };
import emails from '../vectors/emails.json' with { type: 'json' };
import pow from '../vectors/pow.json' with { type: 'json' };
import referralCodes from '../vectors/referral-codes.json' with { type: 'json' };

const fromHex = (hex: string) => Uint8Array.from(hex.match(/../g) ?? [], (b) => Number.parseInt(b, 16));

describe('PoW vectors', () => {
  it.each(pow.digests)('digest of $input', ({ nonce, solution, digest, leading_zero_bits }) => {
    const ours = powDigest(nonce, solution);
    expect(toHex(ours)).toBe(digest);
    expect(leadingZeroBits(ours)).toBe(leading_zero_bits);
  });

  it.each(pow.thresholds)(
    'first solution with $first_for bits',
    ({ nonce, solution, digest, leading_zero_bits }) => {
      expect(toHex(powDigest(nonce, solution))).toBe(digest);
      expect(leadingZeroBits(fromHex(digest))).toBe(leading_zero_bits);
    },
  );

  it.each(pow.bit_counts)('leading zero bits of $digest', ({ digest, leading_zero_bits }) => {
    expect(leadingZeroBits(fromHex(digest))).toBe(leading_zero_bits);
  });

  it.each(pow.verify)('verify: $note', ({ nonce, solution, difficulty, valid }) => {
    expect(verifyPow(nonce, solution as number, difficulty)).toBe(valid);
  });
});

describe('API key vectors', () => {
  it.each(apiKeys.valid)('accepts $value', ({ value, listed, checksum, crc32: crc }) => {
    const parsed = parseApiKey(value);
    expect(parsed).toMatchObject({ ok: true, listed, checksum });
    expect(crc32(utf8(value.slice(0, 41)))).toBe(crc);
    expect(apiKeyChecksum(value.slice(0, 41))).toBe(checksum);
  });

  it.each(apiKeys.broken)('rejects: $note', ({ value, problem }) => {
    const parsed = parseApiKey(value);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) {
      expect(parsed.problem).toBe(problem);
      expect(parsed.message.length).toBeGreaterThan(10);
    }
  });
});

describe('referral code vectors', () => {
  it.each(referralCodes.cases)('$input', ({ input, normalized }) => {
    expect(normalizeReferralCode(input)).toBe(normalized ?? undefined);
  });
});

describe('email vectors', () => {
  it('holds at least 60 cases, both kinds', () => {
    expect(emails.cases.length).toBeGreaterThanOrEqual(60);
    expect(emails.cases.some((c) => c.valid)).toBe(true);
    expect(emails.cases.some((c) => !c.valid)).toBe(true);
  });

  it.each(emails.cases)('$note: $input', (vector) => {
    const result = checkEmail(vector.input);
    if (vector.valid) {
      expect(result).toMatchObject({ ok: true, email: vector.email, normalized: vector.normalized });
    } else {
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.reason).toMatch(/\w/);
    }
  });
});
