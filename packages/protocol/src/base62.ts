export const BASE62_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** `length` characters drawn uniformly from `alphabet` (at most 256 symbols) with the platform CSPRNG. */
export function randomString(alphabet: string, length: number): string {
  // Rejection sampling keeps the draw uniform when 256 is not a multiple of the alphabet size.
  const limit = 256 - (256 % alphabet.length);
  let out = '';
  const buf = new Uint8Array(length * 2);
  while (out.length < length) {
    crypto.getRandomValues(buf);
    for (const byte of buf) {
      if (byte < limit) out += alphabet[byte % alphabet.length];
      if (out.length === length) break;
    }
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
