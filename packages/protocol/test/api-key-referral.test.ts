import { describe, expect, it } from 'vitest';
import {
  API_KEY_LENGTH,
  BASE62_ALPHABET,
  generateApiKey,
  generateReferralCode,
  parseApiKey,
  REFERRAL_CODE_ALPHABET,
  randomString,
} from '../src/index.js';

describe('API keys', () => {
  it('generates distinct keys that parse', () => {
    const keys = new Set(Array.from({ length: 200 }, generateApiKey));
    expect(keys.size).toBe(200);
    for (const key of keys) {
      expect(key).toHaveLength(API_KEY_LENGTH);
      expect(parseApiKey(key)).toMatchObject({ ok: true, listed: key.slice(0, 12) });
    }
  });

  it('catches every single-character substitution after the prefix', () => {
    const key = generateApiKey();
    for (let i = 9; i < key.length; i++) {
      for (const c of BASE62_ALPHABET) {
        if (c === key[i]) continue;
        const typo = key.slice(0, i) + c + key.slice(i + 1);
        expect(parseApiKey(typo)).toMatchObject({ ok: false, problem: 'checksum' });
      }
    }
  });

  it('catches every swap of adjacent characters that changes the key', () => {
    const key = generateApiKey();
    for (let i = 9; i < key.length - 1; i++) {
      if (key[i] === key[i + 1]) continue;
      const swapped = key.slice(0, i) + key[i + 1] + key[i] + key.slice(i + 2);
      expect(parseApiKey(swapped).ok).toBe(false);
    }
  });

  it('rejects values that are not strings', () => {
    for (const value of [undefined, null, 42, {}, []]) {
      expect(parseApiKey(value)).toMatchObject({ ok: false, problem: 'type' });
    }
  });
});

describe('referral codes', () => {
  it('draws 6 characters from the alphabet, using all of it', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 2000; i++) {
      const code = generateReferralCode();
      expect(code).toMatch(/^[23456789ABCDEFGHJKLMNPQRSTUVWXYZ]{6}$/);
      for (const c of code) seen.add(c);
    }
    expect(seen.size).toBe(REFERRAL_CODE_ALPHABET.length);
  });
});

describe('randomString', () => {
  it('draws every symbol about equally often, across many refills of its random pool', () => {
    // 62 symbols need rejection sampling (256 is not a multiple of 62): a biased draw or a byte
    // handed out twice across a refill would skew the counts or repeat strings.
    const counts = new Map<string, number>();
    const strings = Array.from({ length: 2_000 }, () => randomString(BASE62_ALPHABET, 31));
    for (const s of strings) for (const ch of s) counts.set(ch, (counts.get(ch) ?? 0) + 1);
    expect(new Set(strings).size).toBe(strings.length);
    expect(counts.size).toBe(62);
    // Expected 1,000 each, standard deviation about 31: the bounds are over 6 deviations away.
    for (const n of counts.values()) expect(n).toBeGreaterThan(800);
    for (const n of counts.values()) expect(n).toBeLessThan(1_200);
  });

  it('uses only the given alphabet, at the given length', () => {
    for (const length of [0, 1, 7, 5_000]) {
      const s = randomString('ab', length);
      expect(s).toMatch(/^[ab]*$/);
      expect(s).toHaveLength(length);
    }
  });
});
