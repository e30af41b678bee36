/** The rule of address variants (domain/address-variants.ts), without I/O. */
import { describe, expect, it } from 'vitest';
import { variantKey } from '../src/domain/address-variants.js';

describe('variantKey', () => {
  it('drops dots and everything from + at Gmail, and writes googlemail.com as gmail.com', () => {
    for (const address of [
      'john@gmail.com',
      'j.o.h.n+x@gmail.com',
      'john+@googlemail.com',
      'jo.hn@googlemail.com',
    ])
      expect(variantKey(address), address).toBe('john@gmail.com');
  });

  it('drops only everything from + at the other providers', () => {
    for (const domain of [
      'outlook.com',
      'hotmail.com',
      'live.com',
      'icloud.com',
      'me.com',
      'fastmail.com',
      'proton.me',
      'protonmail.com',
    ]) {
      expect(variantKey(`j.ohn+news@${domain}`)).toBe(`j.ohn@${domain}`);
      expect(variantKey(`j.ohn@${domain}`)).toBe(`j.ohn@${domain}`);
    }
    expect(variantKey('john@outlook.com')).not.toBe(variantKey('jo.hn@outlook.com'));
  });

  it('has no key for other domains, a provider lookalike, or a name that is all tag', () => {
    for (const address of [
      'j.ohn+x@example.com',
      'john@gmail.com.evil.example',
      'john@notgmail.com',
      '+x@gmail.com',
      '...@gmail.com',
    ])
      expect(variantKey(address), address).toBeUndefined();
  });
});
