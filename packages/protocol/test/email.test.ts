import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkEmail, EMAIL_MAX_LENGTH, normalizeEmail } from '../src/index.js';

describe('checkEmail properties', () => {
  it('never throws and keeps its limits on arbitrary strings', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ maxLength: 400 }),
          fc.string({ unit: 'binary', maxLength: 80 }),
          // Mostly the characters the grammar cares about, so many inputs get deep into it.
          fc.string({ unit: fc.constantFrom(...'aZ9@."\\ \t-_!(),[]:;<>é例xn'), maxLength: 60 }),
        ),
        (s) => {
          const result = checkEmail(s);
          if (result.ok) {
            expect(result.normalized.length).toBeLessThanOrEqual(EMAIL_MAX_LENGTH);
            expect(result.normalized).toBe(result.normalized.toLowerCase());
          }
        },
      ),
      { numRuns: 5000 },
    );
  });

  it('accepts what fast-check considers an email, and normalisation is idempotent', () => {
    fc.assert(
      fc.property(fc.emailAddress(), (address) => {
        const normalized = normalizeEmail(address);
        // fast-check may produce numeric TLDs or over-long labels, which we refuse by design.
        if (normalized !== undefined) expect(normalizeEmail(normalized)).toBe(normalized);
      }),
      { numRuns: 2000 },
    );
  });

  it('finds one normalised form for every case and spacing of an address', () => {
    const forms = ['Ada@Example.com', ' ada@EXAMPLE.COM', 'ADA@example.com\t'];
    expect(new Set(forms.map(normalizeEmail))).toEqual(new Set(['ada@example.com']));
  });

  it('refuses values that are not strings', () => {
    for (const value of [undefined, null, 42, {}, ['a@b.co']]) {
      expect(checkEmail(value)).toMatchObject({ ok: false });
    }
  });
});
