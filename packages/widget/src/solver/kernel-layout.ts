/**
 * Memory of the Proof of Work kernel (build/pow-kernel.ts), shared by the code that writes it.
 * The padded tail comes first: a digit carry that ran past the first digit (hasher.ts's runs()
 * sizes every call so none does) would go down through the prefix's bytes and below address 0,
 * never into the state or the round constants above it. Vectors are four words, one per lane;
 * the host writes the midstate and K splatted, four copies of each word.
 */
export const TAIL = 0; // two 64-byte blocks: the prefix's last partial block, the digits, the padding
export const STATE = 128; // two runs of eight vectors: the state before each block of the tail (the first: the midstate)
export const ROUND_CONSTANTS = 512; // 64 vectors: K
export const LANES = 2048; // two message schedules of 64 vectors, one per block of the tail

/**
 * The kernel travels in the bundle as a string of one character per byte, byte b as the character
 * 116 − b (mod 256), and this undoes that (the map is its own inverse). It turns the bytes
 * WebAssembly uses most (local.get, i32.const, small indices) into printable ASCII, which saves
 * 73 bytes of the gzipped script tag over the bytes as they are (the best of the 512 maps ±b + c,
 * measured on this kernel).
 */
export const kernelByte = (char: string) => (116 - char.charCodeAt(0)) & 255;
