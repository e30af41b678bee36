/**
 * SHA-256 in plain JavaScript, with a resumable midstate.
 *
 * It exists so that Proof of Work can be verified and solved in any JavaScript
 * environment (browser, worker, Node) without WebCrypto's async API, and so the
 * widget has a fallback when WebAssembly is forbidden. The midstate API lets a
 * solver hash the fixed `nonce:` prefix once and only the varying tail per try.
 */

const PRIMES: number[] = [];
for (let c = 2; PRIMES.length < 64; c++) if (PRIMES.every((p) => c % p)) PRIMES.push(c);

/**
 * The 64 round constants of SHA-256 (FIPS 180-4 §4.2.2): the first 32 bits of the fractional
 * parts of the cube roots of the first 64 primes. Computed, not listed, because the table costs
 * the widget about 400 bytes gzipped; doubles carry the 32 bits exactly, and the tests compare
 * the result with the standard's table.
 */
export const SHA256_K = Uint32Array.from(PRIMES, (p) => (Math.cbrt(p) % 1) * 2 ** 32);

/** The initial hash value (§5.3.3): the same from the square roots of the first 8 primes. */
export const SHA256_IV = Uint32Array.from(PRIMES.slice(0, 8), (p) => (Math.sqrt(p) % 1) * 2 ** 32);

const W = new Uint32Array(64);

/** Runs the compression function over the 64-byte block at `offset`, updating `h` in place. */
export function sha256Compress(h: Uint32Array, block: Uint8Array, offset: number): void {
  for (let i = 0; i < 16; i++) {
    const j = offset + i * 4;
    W[i] =
      ((block[j] as number) << 24) |
      ((block[j + 1] as number) << 16) |
      ((block[j + 2] as number) << 8) |
      (block[j + 3] as number);
  }
  for (let i = 16; i < 64; i++) {
    const a = W[i - 15] as number;
    const b = W[i - 2] as number;
    const s0 = ((a >>> 7) | (a << 25)) ^ ((a >>> 18) | (a << 14)) ^ (a >>> 3);
    const s1 = ((b >>> 17) | (b << 15)) ^ ((b >>> 19) | (b << 13)) ^ (b >>> 10);
    W[i] = ((W[i - 16] as number) + s0 + (W[i - 7] as number) + s1) | 0;
  }
  let a = h[0] as number;
  let b = h[1] as number;
  let c = h[2] as number;
  let d = h[3] as number;
  let e = h[4] as number;
  let f = h[5] as number;
  let g = h[6] as number;
  let k = h[7] as number;
  for (let i = 0; i < 64; i++) {
    const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const t1 = (k + S1 + ((e & f) ^ (~e & g)) + (SHA256_K[i] as number) + (W[i] as number)) | 0;
    const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const t2 = (S0 + ((a & b) ^ (a & c) ^ (b & c))) | 0;
    k = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  h[0] = ((h[0] as number) + a) | 0;
  h[1] = ((h[1] as number) + b) | 0;
  h[2] = ((h[2] as number) + c) | 0;
  h[3] = ((h[3] as number) + d) | 0;
  h[4] = ((h[4] as number) + e) | 0;
  h[5] = ((h[5] as number) + f) | 0;
  h[6] = ((h[6] as number) + g) | 0;
  h[7] = ((h[7] as number) + k) | 0;
}

/** The hash state after every whole 64-byte block of a prefix; the remainder is kept to finish later. */
export interface Sha256Midstate {
  readonly h: Uint32Array;
  readonly rest: Uint8Array;
  readonly length: number;
}

export function sha256Midstate(prefix: Uint8Array): Sha256Midstate {
  const h = Uint32Array.from(SHA256_IV);
  const whole = prefix.length - (prefix.length % 64);
  for (let off = 0; off < whole; off += 64) sha256Compress(h, prefix, off);
  return { h, rest: prefix.slice(whole), length: prefix.length };
}

/** Finishes the hash of `prefix + suffix` from the prefix's midstate; the midstate is not modified. */
export function sha256Finish(mid: Sha256Midstate, suffix: Uint8Array): Uint8Array {
  const tailLength = mid.rest.length + suffix.length;
  const total = mid.length + suffix.length;
  const padded = new Uint8Array((tailLength + 9 + 63) & ~63);
  padded.set(mid.rest, 0);
  padded.set(suffix, mid.rest.length);
  padded[tailLength] = 0x80;
  const view = new DataView(padded.buffer);
  // Bit length as a 64-bit big-endian integer; inputs here never reach 2^53 bits.
  view.setUint32(padded.length - 8, Math.floor(total / 0x20000000));
  view.setUint32(padded.length - 4, (total << 3) >>> 0);
  const h = mid.h.slice();
  for (let off = 0; off < padded.length; off += 64) sha256Compress(h, padded, off);
  const out = new Uint8Array(32);
  const outView = new DataView(out.buffer);
  for (let i = 0; i < 8; i++) outView.setUint32(i * 4, h[i] as number);
  return out;
}

export function sha256(data: Uint8Array): Uint8Array {
  return sha256Finish(sha256Midstate(data), new Uint8Array(0));
}

const encoder = new TextEncoder();

export function utf8(text: string): Uint8Array {
  return encoder.encode(text);
}

export function toHex(bytes: Uint8Array): string {
  let out = '';
  for (const byte of bytes) out += byte.toString(16).padStart(2, '0');
  return out;
}
