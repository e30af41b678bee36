/**
 * The scalar kernel, made from the SIMD kernel's bytes where the engine lacks WebAssembly SIMD:
 * one program, shipped once, run one candidate per pass instead of four.
 *
 * build/pow-kernel.ts writes the SIMD kernel so that this works: every SIMD instruction it uses
 * has an i32 twin that takes the same operands (a vector op on lane 0 is that op on an i32), and
 * its opcode (0xfd, then one or two bytes) has as many bytes as the twin's opcode padded with nops,
 * so no length or offset in the module moves. Lanes 1–3 of every vector in memory go unread. The
 * build assembles the scalar twin from its own text and checks that this function gives the same
 * bytes, so no immediate that happens to hold 0xfd or 0x7b can slip through.
 */

/**
 * i32 opcode of each SIMD opcode the kernel uses (by its first byte after 0xfd). The two left out
 * become nops: i32x4.splat (0x11), as an i32 is its own splat, and i32x4.bitmask (0xa4), as
 * i32.eq's 0 or 1 is lane 0's bit.
 */
const TWIN: Record<number, number> = {
  0: 0x28, // v128.load → i32.load
  11: 0x36, // v128.store → i32.store
  55: 0x46, // i32x4.eq → i32.eq
  78: 0x71, // v128.and → i32.and
  81: 0x73, // v128.xor → i32.xor
  171: 0x74, // i32x4.shl → i32.shl
  173: 0x76, // i32x4.shr_u → i32.shr_u
  174: 0x6a, // i32x4.add → i32.add
};

export function scalarKernel(simd: Uint8Array): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(simd); // a copy, even of a Node Buffer (whose slice() would share)
  for (let i = 0; i < bytes.length; i++) {
    // The prefix becomes a nop before the twin; a two-byte opcode's second byte (1) is a nop already.
    if (bytes[i] === 0xfd) {
      bytes[i] = 0x01;
      bytes[i + 1] = TWIN[bytes[i + 1] as number] ?? 0x01;
    } else if (bytes[i] === 0x7b) bytes[i] = 0x7f; // v128 locals → i32
  }
  return bytes;
}
