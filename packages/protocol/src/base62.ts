export const BASE62_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * Random bytes drawn from the platform CSPRNG a page at a time: a server mints three random
 * strings per sign-up, and one `getRandomValues` call per string was a measurable share of its
 * main thread. Each byte is handed out once.
 */
const pool = new Uint8Array(4096);
let poolAt = pool.length;

function randomByte(): number {
  if (poolAt === pool.length) {
    crypto.getRandomValues(pool);
    poolAt = 0;
  }
  return pool[poolAt++] as number;
}

/** `length` characters drawn uniformly from `alphabet` (at most 256 symbols) with the platform CSPRNG. */
export function randomString(alphabet: string, length: number): string {
  // Rejection sampling keeps the draw uniform when 256 is not a multiple of the alphabet size.
  const limit = 256 - (256 % alphabet.length);
  let out = '';
  while (out.length < length) {
    const byte = randomByte();
    if (byte < limit) out += alphabet[byte % alphabet.length];
  }
  return out;
}

/** `value` (a non-negative safe integer) in base 62, left-padded with `0` to `width`. */
export function toBase62(value: number, width: number): string {
  let out = '';
  let rest = value;
  do {
    out = BASE62_ALPHABET[rest % 62] + out;
    rest = Math.floor(rest / 62);
  } while (rest > 0);
  return out.padStart(width, '0');
}
