/** The sealing of secrets shown once (domain/one-time-secret.ts), without a store. */
import { describe, expect, it } from 'vitest';
import { openReveal, revealLookup, sealReveal } from '../src/domain/one-time-secret.js';

describe('a sealed reveal', () => {
  const secret = 'whsec_c2VjcmV0IHNpZ25pbmcga2V5IGJ5dGVzISE=';

  it('opens with the name it was sealed under, and is found by that name', () => {
    const held = sealReveal(secret);
    expect(openReveal(held.name, held.sealed)).toBe(secret);
    expect(revealLookup(held.name)).toBe(held.lookup);
  });

  it('holds neither the secret nor the name in what the store keeps', () => {
    const held = sealReveal(secret);
    const stored = `${held.lookup} ${held.sealed} ${Buffer.from(held.sealed, 'base64url').toString('latin1')}`;
    expect(stored).not.toContain(secret);
    expect(stored).not.toContain(held.name);
  });

  it('opens with no other name, and not when tampered with', () => {
    const held = sealReveal(secret);
    const other = sealReveal(secret);
    expect(other.name).not.toBe(held.name);
    expect(openReveal(other.name, held.sealed)).toBeUndefined();
    const bytes = Buffer.from(held.sealed, 'base64url');
    bytes[bytes.length - 1] = (bytes[bytes.length - 1] as number) ^ 1;
    expect(openReveal(held.name, bytes.toString('base64url'))).toBeUndefined();
    expect(openReveal(held.name, '')).toBeUndefined();
    expect(openReveal(held.name, '!!not base64!!')).toBeUndefined();
  });
});
