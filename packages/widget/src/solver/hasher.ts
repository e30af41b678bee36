/**
 * SHA-256 of `nonce:candidate` for runs of candidates, from the midstate of the `nonce:` prefix:
 * the Proof of Work kernel in WebAssembly (four candidates per pass with WebAssembly SIMD, else its
 * i32 twin, one), or the protocol's JavaScript SHA-256 where a Content Security Policy forbids
 * WebAssembly. All hash the same padded tail, laid out here, and step the candidate's decimal
 * digits in place rather than formatting a number per try.
 */

import kernelText from 'virtual:pow-kernel';
import { SHA256_K, type Sha256Midstate, sha256Compress, sha256Midstate } from '@waitlistkit/protocol';
import { kernelByte, ROUND_CONSTANTS, STATE, TAIL } from './kernel-layout.js';
import { scalarKernel } from './scalar.js';

export interface Hasher {
  /** The WebAssembly kernel (else JavaScript). */
  readonly wasm: boolean;
  /** The kernel runs four candidates per pass (WebAssembly SIMD). */
  readonly simd?: boolean;
  /**
   * Tries `count` candidates `start, start + stride, …` (integers from 0 to 2^53 − 1) and returns
   * the index of the first whose digest's first word shifted right by `shift` is zero
   * (`shift` = 32 − difficulty), or −1.
   */
  run(start: number, count: number, stride: number, shift: number): number;
}

/** A hasher's search: `run` for candidates that all have as many digits as `digits`. */
type Search = (digits: string, count: number, stride: number, shift: number) => number;

/**
 * `run` from a search over candidates of one digit count, as the hashers step the digits in place:
 * a run that would gain a digit (9 → 10, 99 → 100, …) is split there, each part with its own tail.
 * Done here, for every caller: a carry past the first digit would run down through the prefix's
 * bytes in the tail (wrong digests) or, where the prefix fills whole blocks, below address 0 (the
 * kernel traps).
 */
function runs(search: Search): Hasher['run'] {
  return function run(start, count, stride, shift): number {
    const digits = String(start);
    // The candidates below the next power of ten.
    const same = Math.min(count, Math.ceil((10 ** digits.length - start) / stride));
    const found = search(digits, same, stride, shift);
    const next = found < 0 && same < count ? run(start + same * stride, count - same, stride, shift) : -1;
    return next < 0 ? found : same + next;
  };
}

/**
 * Writes the tail that follows the prefix's whole blocks (its last partial block, the digits, the
 * 0x80 marker, zeros and the bit length) into `into`, 128 bytes; returns how many 64-byte blocks
 * it spans: one, or two when the digits and padding overflow the first.
 */
function writeTail(into: Uint8Array, mid: Sha256Midstate, digits: string): number {
  const used = mid.rest.length + digits.length;
  const blocks = used + 9 > 64 ? 2 : 1;
  const bits = (mid.length + digits.length) * 8;
  into.fill(0);
  into.set(mid.rest);
  for (let i = 0; i < digits.length; i++) into[mid.rest.length + i] = digits.charCodeAt(i);
  into[used] = 0x80;
  // The bit length, big-endian, in two bytes: nonces of at most 256 characters stay below 2^14 bits.
  into[blocks * 64 - 2] = bits >> 8;
  into[blocks * 64 - 1] = bits;
  return blocks;
}

export function jsHasher(prefix: Uint8Array): Hasher {
  const mid = sha256Midstate(prefix);
  const tail = new Uint8Array(128);
  const h = new Uint32Array(8);
  return {
    wasm: false,
    run: runs((digits, count, stride, shift) => {
      const blocks = writeTail(tail, mid, digits);
      const last = mid.rest.length + digits.length - 1;
      for (let i = 0; ; ) {
        h.set(mid.h);
        sha256Compress(h, tail, 0);
        if (blocks === 2) sha256Compress(h, tail, 64);
        if ((h[0] as number) >>> shift === 0) return i;
        if (++i === count) return -1;
        for (let p = last, carry = stride; carry > 0; p--) {
          const d = (tail[p] as number) - 48 + carry;
          tail[p] = 48 + (d % 10);
          carry = (d - (d % 10)) / 10;
        }
      }
    }),
  };
}

interface KernelExports {
  /** Its memory: a one-letter name, as every byte of the kernel ships in the script tag. */
  m: WebAssembly.Memory;
  search(
    at: number,
    length: number,
    blocks: number,
    count: number,
    stride: number,
    shift: number,
    lanes: number,
  ): number;
}

/**
 * The kernel, or a rejection where WebAssembly is missing or forbidden (CSP without
 * 'wasm-unsafe-eval'): as built where `validate` accepts it (the engine has WebAssembly SIMD), else
 * its i32 twin (scalar.ts). Validating the kernel itself rather than a tiny SIMD probe module
 * tests exactly the instructions it uses, and ships no extra bytes.
 */
export async function wasmHasher(
  prefix: Uint8Array,
  validate: (bytes: BufferSource) => boolean = WebAssembly.validate,
): Promise<Hasher> {
  const simdBytes = Uint8Array.from(kernelText, kernelByte);
  const simd = validate(simdBytes);
  const { instance } = await WebAssembly.instantiate(simd ? simdBytes : scalarKernel(simdBytes));
  const kernel = instance.exports as unknown as KernelExports;
  const tail = new Uint8Array(kernel.m.buffer, TAIL, 128);
  const view = new DataView(kernel.m.buffer);
  const mid = sha256Midstate(prefix);
  for (let i = 0; i < 256; i++) view.setUint32(ROUND_CONSTANTS + 4 * i, SHA256_K[i >> 2] as number, true);
  for (let i = 0; i < 32; i++) view.setUint32(STATE + 4 * i, mid.h[i >> 2] as number, true);
  return {
    wasm: true,
    simd,
    run: runs((digits, count, stride, shift) => {
      const blocks = writeTail(tail, mid, digits);
      return kernel.search(mid.rest.length, digits.length, blocks, count, stride, shift, simd ? 4 : 1);
    }),
  };
}
