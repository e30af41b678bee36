/**
 * SHA-256 in plain JavaScript, with a resumable midstate.
 *
 * It exists so that Proof of Work can be verified and solved in any JavaScript
 * environment (browser, worker, Node) without WebCrypto's async API, and so the
 * widget has a fallback when WebAssembly is forbidden. The midstate API lets a
 * solver hash the fixed `nonce:` prefix once and only the varying tail per try.
 */

/** The 64 round constants of SHA-256 (FIPS 180-4 §4.2.2). */
export const SHA256_K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
]);

const IV = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];

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
  const h = Uint32Array.from(IV);
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
