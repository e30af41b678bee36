/**
 * SHA-256 of `nonce:candidate` for runs of candidates, from the midstate of the `nonce:` prefix:
 * the Proof of Work kernel in WebAssembly, or the protocol's JavaScript SHA-256 where a Content
 * Security Policy forbids WebAssembly. Both hash the same padded tail, laid out here, and step the
 * candidate's decimal digits in place rather than formatting a number per try.
 */

import kernelBytes from 'virtual:pow-kernel';
import { SHA256_K, type Sha256Midstate, sha256Compress, sha256Midstate } from '@waitlistkit/protocol';
import { MIDSTATE, ROUND_CONSTANTS, TAIL } from './kernel-layout.js';

export interface Hasher {
  /** The WebAssembly kernel (else JavaScript). */
  readonly wasm: boolean;
  /**
   * Tries `count` candidates `start, start + stride, …`, all with as many digits as `start`, and
   * returns the index of the first whose digest's first word shifted right by `shift` is zero
   * (`shift` = 32 − difficulty), or −1.
   */
  run(start: number, count: number, stride: number, shift: number): number;
}

/**
 * Writes the tail that follows the prefix's whole blocks (its last partial block, the digits, the
 * 0x80 marker, zeros and the bit length) at `at` in `into`; returns how many 64-byte blocks it
 * spans: one, or two when the digits and padding overflow the first.
 */
function writeTail(into: Uint8Array, at: number, mid: Sha256Midstate, digits: string): number {
  const used = mid.rest.length + digits.length;
  const blocks = used + 9 > 64 ? 2 : 1;
  into.fill(0, at, at + 128);
  into.set(mid.rest, at);
  for (let i = 0; i < digits.length; i++) into[at + mid.rest.length + i] = digits.charCodeAt(i);
  into[at + used] = 0x80;
  const bits = (mid.length + digits.length) * 8;
  const view = new DataView(into.buffer, into.byteOffset);
  view.setUint32(at + blocks * 64 - 8, Math.floor(bits / 2 ** 32));
  view.setUint32(at + blocks * 64 - 4, bits >>> 0);
  return blocks;
}

export function jsHasher(prefix: Uint8Array): Hasher {
  const mid = sha256Midstate(prefix);
  const tail = new Uint8Array(128);
  const h = new Uint32Array(8);
  return {
    wasm: false,
    run(start, count, stride, shift) {
      const digits = String(start);
      const blocks = writeTail(tail, 0, mid, digits);
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
    },
  };
}

interface KernelExports {
  memory: WebAssembly.Memory;
  search(at: number, length: number, blocks: number, count: number, stride: number, shift: number): number;
}

/** The kernel, or a rejection where WebAssembly is missing or forbidden (CSP without 'wasm-unsafe-eval'). */
export async function wasmHasher(prefix: Uint8Array): Promise<Hasher> {
  const bytes = Uint8Array.from(kernelBytes, (c) => c.charCodeAt(0));
  const { instance } = await WebAssembly.instantiate(bytes);
  const kernel = instance.exports as unknown as KernelExports;
  const memory = new Uint8Array(kernel.memory.buffer);
  const view = new DataView(kernel.memory.buffer);
  const mid = sha256Midstate(prefix);
  for (let i = 0; i < 64; i++) view.setUint32(ROUND_CONSTANTS + 4 * i, SHA256_K[i] as number, true);
  for (let i = 0; i < 8; i++) view.setUint32(MIDSTATE + 4 * i, mid.h[i] as number, true);
  return {
    wasm: true,
    run(start, count, stride, shift) {
      const digits = String(start);
      const blocks = writeTail(memory, TAIL, mid, digits);
      return kernel.search(mid.rest.length, digits.length, blocks, count, stride, shift);
    },
  };
}
