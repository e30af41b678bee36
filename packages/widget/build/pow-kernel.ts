/**
 * The Proof of Work kernel: SHA-256 in WebAssembly, written as text here and assembled at build
 * time with wabt. It hashes the padded tail that follows the `nonce:` prefix, starting from the
 * prefix's midstate, for `count` candidates whose decimal digits it steps in place, and returns
 * the index of the first digest that begins with enough zero bits. The whole search loop runs
 * inside WebAssembly: no call out per try.
 *
 * Why not hash-wasm's SHA-256: its binary is 9.5 kB (3.5 kB gzipped, a quarter of the script
 * tag's 15 kB budget) because its rounds are fully unrolled, and driving it costs a call into
 * WebAssembly per try. This kernel is 0.8 kB and faster per try (measured in the benchmarks,
 * where hash-wasm is a baseline). Two rounds per loop pass: measured in Node 20 on one core,
 * 1 round per pass gave 4.4 MH/s for 707 bytes, 2 gave 5.2 for 802, 4 gave 5.4 for 992 and 8
 * gave 5.6 for 1340; two is most of the speed for little of the size.
 */
import { createRequire } from 'node:module';
import { MIDSTATE, ROUND_CONSTANTS, SCHEDULE, STATE, TAIL } from '../src/solver/kernel-layout.js';

const get = (name: string) => `(local.get $${name})`;
const rotr = (x: string, n: number) => `(i32.rotr ${get(x)} (i32.const ${n}))`;
const xor3 = (a: string, b: string, c: string) => `(i32.xor (i32.xor ${a} ${b}) ${c})`;

const ROUNDS_PER_PASS = 2;
type Eight = [string, string, string, string, string, string, string, string];
const VARIABLES: Eight = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];

/** One round with the working variables named for their roles in it; `r` is its place in the pass. */
function round(r: number): string {
  // Instead of moving eight values each round, the names rotate: round r's `a` is v[-r mod 8].
  const [a, b, c, d, e, f, g, h] = VARIABLES.map((_, role) => VARIABLES[(role - r + 8) % 8]) as Eight;
  return `
      (local.set $t1 (i32.add (i32.add ${get(h)} ${xor3(rotr(e, 6), rotr(e, 11), rotr(e, 25))})
        (i32.add (i32.xor (i32.and ${get(e)} ${get(f)}) (i32.and (i32.xor ${get(e)} (i32.const -1)) ${get(g)}))
          (i32.add (i32.load offset=${ROUND_CONSTANTS + 4 * r} (local.get $p)) (i32.load offset=${SCHEDULE + 4 * r} (local.get $p))))))
      (local.set $${d} (i32.add ${get(d)} (local.get $t1)))
      (local.set $${h} (i32.add (local.get $t1) (i32.add ${xor3(rotr(a, 2), rotr(a, 13), rotr(a, 22))}
        (i32.or (i32.and ${get(a)} ${get(b)}) (i32.and ${get(c)} (i32.or ${get(a)} ${get(b)}))))))`;
}

/** After a pass the names have rotated by its rounds: put each value back under its role's name. */
function restoreRoles(): string {
  const from = VARIABLES.map((_, role) => VARIABLES[(role - ROUNDS_PER_PASS + 8) % 8] as string);
  // All eight onto the operand stack, then off in reverse: a simultaneous assignment.
  return `
      ${from.map((v) => `(local.get $${v})`).join(' ')}
      ${[...VARIABLES]
        .reverse()
        .map((v) => `(local.set $${v})`)
        .join(' ')}`;
}

const STATE_WORDS = VARIABLES;

export const POW_KERNEL_WAT = `(module
  (memory (export "memory") 1)
  ;; Big-endian word of the block at the given address (WebAssembly loads little-endian).
  (func $word (param $at i32) (result i32) (local $x i32)
    (local.set $x (i32.load (local.get $at)))
    (i32.or (i32.and (i32.rotl (local.get $x) (i32.const 8)) (i32.const 0x00ff00ff))
      (i32.and (i32.rotr (local.get $x) (i32.const 8)) (i32.const 0xff00ff00))))
  (func $compress (param $block i32)
    (local $p i32) (local $x i32) (local $y i32) (local $t1 i32)
    (local $a i32) (local $b i32) (local $c i32) (local $d i32) (local $e i32) (local $f i32) (local $g i32) (local $h i32)
    (loop $load
      (i32.store offset=${SCHEDULE} (local.get $p) (call $word (i32.add (local.get $block) (local.get $p))))
      (br_if $load (i32.lt_u (local.tee $p (i32.add (local.get $p) (i32.const 4))) (i32.const 64))))
    (loop $expand
      (local.set $x (i32.load offset=${SCHEDULE - 8} (local.get $p)))
      (local.set $y (i32.load offset=${SCHEDULE - 60} (local.get $p)))
      (i32.store offset=${SCHEDULE} (local.get $p)
        (i32.add
          (i32.add ${xor3(rotr('x', 17), rotr('x', 19), '(i32.shr_u (local.get $x) (i32.const 10))')}
            (i32.load offset=${SCHEDULE - 28} (local.get $p)))
          (i32.add ${xor3(rotr('y', 7), rotr('y', 18), '(i32.shr_u (local.get $y) (i32.const 3))')}
            (i32.load offset=${SCHEDULE - 64} (local.get $p)))))
      (br_if $expand (i32.lt_u (local.tee $p (i32.add (local.get $p) (i32.const 4))) (i32.const 256))))
    ${STATE_WORDS.map((w, i) => `(local.set $${w} (i32.load offset=${STATE + 4 * i} (i32.const 0)))`).join('\n    ')}
    (local.set $p (i32.const 0))
    (loop $round${Array.from({ length: ROUNDS_PER_PASS }, (_, r) => round(r)).join('')}${restoreRoles()}
      (br_if $round (i32.lt_u (local.tee $p (i32.add (local.get $p) (i32.const ${4 * ROUNDS_PER_PASS}))) (i32.const 256))))
    ${STATE_WORDS.map(
      (w, i) =>
        `(i32.store offset=${STATE + 4 * i} (i32.const 0) (i32.add (i32.load offset=${STATE + 4 * i} (i32.const 0)) (local.get $${w})))`,
    ).join('\n    ')})
  ;; Tries count candidates: the digits at tail + at (len of them) step by stride after each try.
  ;; The caller sizes count so that the digits never gain a place.
  (func (export "search") (param $at i32) (param $len i32) (param $blocks i32) (param $count i32)
    (param $stride i32) (param $shift i32) (result i32)
    (local $i i32) (local $k i32) (local $p i32) (local $carry i32) (local $d i32)
    (block $done
      (loop $try
        (local.set $k (i32.const 0))
        (loop $copy
          (i32.store offset=${STATE} (local.get $k) (i32.load offset=${MIDSTATE} (local.get $k)))
          (br_if $copy (i32.lt_u (local.tee $k (i32.add (local.get $k) (i32.const 4))) (i32.const 32))))
        (call $compress (i32.const ${TAIL}))
        (if (i32.eq (local.get $blocks) (i32.const 2)) (then (call $compress (i32.const ${TAIL + 64}))))
        (if (i32.eqz (i32.shr_u (i32.load offset=${STATE} (i32.const 0)) (local.get $shift)))
          (then (return (local.get $i))))
        (br_if $done (i32.ge_u (local.tee $i (i32.add (local.get $i) (i32.const 1))) (local.get $count)))
        (local.set $carry (local.get $stride))
        (local.set $p (i32.add (i32.const ${TAIL - 1}) (i32.add (local.get $at) (local.get $len))))
        (loop $digit
          (local.set $d (i32.add (i32.sub (i32.load8_u (local.get $p)) (i32.const 48)) (local.get $carry)))
          (i32.store8 (local.get $p) (i32.add (i32.const 48) (i32.rem_u (local.get $d) (i32.const 10))))
          (local.set $carry (i32.div_u (local.get $d) (i32.const 10)))
          (local.set $p (i32.sub (local.get $p) (i32.const 1)))
          (br_if $digit (local.get $carry)))
        (br $try)))
    (i32.const -1)))
`;

interface Wabt {
  parseWat(
    name: string,
    text: string,
  ): { toBinary(options: object): { buffer: Uint8Array }; destroy(): void };
}

let assembled: Promise<Uint8Array> | undefined;

/** The kernel's WebAssembly bytes (assembled once per process). */
export function powKernel(): Promise<Uint8Array> {
  assembled ??= (async () => {
    const wabt = await (createRequire(import.meta.url)('wabt') as () => Promise<Wabt>)();
    const module = wabt.parseWat('pow-kernel.wat', POW_KERNEL_WAT);
    try {
      return module.toBinary({}).buffer;
    } finally {
      module.destroy();
    }
  })();
  return assembled;
}
