/**
 * Memory of the Proof of Work kernel (build/pow-kernel.ts), shared by the code that writes it.
 * The padded tail comes first: a digit carry that ran past its place would fall below address 0
 * and trap, never overwrite the state or the round constants above it.
 */
export const TAIL = 0; // two 64-byte blocks: the prefix's last partial block, the digits, the padding
export const MIDSTATE = 128; // eight words: SHA-256 state after the prefix's whole blocks
export const STATE = 160; // eight words: the running state of a try
export const SCHEDULE = 192; // 64 words: the message schedule
export const ROUND_CONSTANTS = 448; // 64 words: K, written once by the host
