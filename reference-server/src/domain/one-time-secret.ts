/**
 * A secret shown once (an API key's value, a webhook's signing secret) on the page a creation
 * redirects to. The redirect may land on another server process than the one that created it,
 * so the secret waits in the store, not in memory; but the store must not become a second
 * place the secret can be read from. So the page's address carries a random name, and the
 * store keeps only a digest of the name (to find the entry) and the secret encrypted under a
 * key derived from the name (AES-256-GCM): whoever reads the database, or a backup of it,
 * learns nothing without the address, which only the creator's browser had. Pure: no I/O.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/** How long a reveal waits to be viewed. */
export const REVEAL_MS = 10 * 60_000;

export interface SealedReveal {
  /** The digest of the name: the store's key for the entry. */
  lookup: string;
  /** IV, tag and ciphertext, base64url. */
  sealed: string;
}

const derive = (purpose: string, name: string) => createHash('sha256').update(`${purpose}:${name}`).digest();

export const revealLookup = (name: string): string => derive('reveal-lookup', name).toString('hex');

/** A fresh name for the address, and what the store keeps of `secret` under it. */
export function sealReveal(secret: string): { name: string } & SealedReveal {
  const name = randomBytes(16).toString('base64url');
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', derive('reveal-key', name), iv);
  const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return {
    name,
    lookup: revealLookup(name),
    sealed: Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url'),
  };
}

/** The secret sealed under `name`; undefined when `sealed` was not made with that name. */
export function openReveal(name: string, sealed: string): string | undefined {
  const bytes = Buffer.from(sealed, 'base64url');
  if (bytes.length < 28) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', derive('reveal-key', name), bytes.subarray(0, 12));
    decipher.setAuthTag(bytes.subarray(12, 28));
    return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}
