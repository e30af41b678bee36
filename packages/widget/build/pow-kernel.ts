/**
 * The Proof of Work kernel: SHA-256 in WebAssembly SIMD, written as text here and assembled at
 * build time with wabt. It hashes the padded tail that follows the `nonce:` prefix, starting from
 * the prefix's midstate, for `count` candidates whose decimal digits it steps in place, and
 * returns the index of the first digest that begins with enough zero bits. The whole search loop
 * runs inside WebAssembly: no call out per try.
 *
 * Four candidates per pass, one in each i32x4 lane: lane j of a pass hashes candidate i + j, and
 * the lowest lane that solves wins, so the answer is the first solving candidate in order, as one
 * candidate at a time would find. The words of the tail that hold no digit are the same in every
 * lane and for the whole call, so they are splatted once; each pass writes only the words that
 * hold digits, lane by lane, stepping the digits in place. When `count` is not a multiple of the
 * lanes, the digits stop stepping at the last candidate and the last lanes repeat it, which can
 * only solve where a lower lane already has.
 *
 * Engines without WebAssembly SIMD run the same program one candidate per pass: the text below is
 * written so that src/solver/scalar.ts can turn its bytes into those of its i32 twin (see there),
 * and `powKernel` assembles that twin from text too and checks the two agree byte for byte. One
 * kernel ships, not two: the widget's 15 kB gzip budget has no room for a second (each is about
 * 0.5 kB gzipped).
 *
 * Why not hash-wasm's SHA-256: its binary is 9.5 kB (3.5 kB gzipped, a quarter of the script
 * tag's budget) because its rounds are fully unrolled, and driving it costs a call into
 * WebAssembly per try. One round per loop pass: measured in Node 20 on one core, a first version
 * of this kernel ran within 5 % at 1, 2 and 8 rounds per pass (1 fastest) for 784, 960 and 1985
 * bytes. WebAssembly has no SIMD rotate: each is two shifts and a xor, so a round is about 36
 * vector operations and a pass (four candidates) about 3,300, 1,250 of them shifts.
 */
import { createRequire } from 'node:module';
import { LANES, ROUND_CONSTANTS, STATE, TAIL } from '../src/solver/kernel-layout.js';
import { scalarKernel } from '../src/solver/scalar.js';

type Eight = [string, string, string, string, string, string, string, string];
const VARIABLES: Eight = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];
const get = (name: string) => `(local.get $${name})`;

/**
 * The instructions whose SIMD and i32 forms differ, as text. The i32 form pads its opcode with
 * nops to the SIMD opcode's length: a nop in place of the 0xfd prefix, and one more after it where
 * the SIMD opcode takes two bytes (its second byte is then 1, a nop, which scalar.ts keeps).
 */
function instructions(simd: boolean) {
  const op =
    (vector: string, scalar: string, wide = false) =>
    (...operands: string[]) =>
      simd
        ? `(${vector} ${operands.join(' ')})`
        : `(${scalar} ${operands.join(' ')} (nop))${wide ? ' (nop)' : ''}`;
  // align=4: the i32 twin's natural alignment, so both encode the same memarg.
  const memory =
    (vector: string, scalar: string) =>
    (offset: number, ...operands: string[]) =>
      simd
        ? `(${vector} offset=${offset} align=4 ${operands.join(' ')})`
        : `(${scalar} offset=${offset} ${operands.join(' ')} (nop))`;
  return {
    type: simd ? 'v128' : 'i32',
    load: memory('v128.load', 'i32.load'),
    store: memory('v128.store', 'i32.store'),
    splat: (x: string) => (simd ? `(i32x4.splat ${x})` : `${x} (nop) (nop)`),
    bitmask: (x: string) => (simd ? `(i32x4.bitmask ${x})` : `${x} (nop) (nop) (nop)`),
    eq: op('i32x4.eq', 'i32.eq'),
    and: op('v128.and', 'i32.and'),
    xor: op('v128.xor', 'i32.xor'),
    shl: op('i32x4.shl', 'i32.shl', true),
    shr: op('i32x4.shr_u', 'i32.shr_u', true),
    add: op('i32x4.add', 'i32.add', true),
  };
}

/** Big-endian word at `at` (WebAssembly loads little-endian); `$p` holds the loaded word. */
const bigEndian = (at: string) => `(i32.or
            (i32.and (i32.rotl (local.tee $p (i32.load ${at})) (i32.const 8)) (i32.const 0x00ff00ff))
            (i32.and (i32.rotr (local.get $p) (i32.const 8)) (i32.const 0xff00ff00)))`;
/** Address in the schedules of the tail's word at byte `k`: block 1's schedule starts at LANES + 1024. */
const laneAddress = (k: string) =>
  `(i32.add (i32.shl ${k} (i32.const 2)) (i32.mul (i32.and ${k} (i32.const 64)) (i32.const 12)))`;

function kernelText(simd: boolean): string {
  const v = instructions(simd);
  const c = (n: number) => `(i32.const ${n})`;
  const rotr = (x: string, n: number) => v.xor(v.shr(x, c(n)), v.shl(x, c(32 - n)));
  const xor3 = (a: string, b: string, d: string) => v.xor(v.xor(a, b), d);
  const bigSigma = (x: string, r1: number, r2: number, r3: number) =>
    xor3(rotr(x, r1), rotr(x, r2), rotr(x, r3));
  const smallSigma = (x: string, r1: number, r2: number, s: number) =>
    xor3(rotr(x, r1), rotr(x, r2), v.shr(x, c(s)));
  const [a, b, cc, d, e, f, g, h] = VARIABLES.map(get) as Eight;
  // The names move one role along instead of the values: all eight onto the operand stack in the
  // new order, then off in reverse. After a round h becomes a, a becomes b, …; in the feed-forward
  // b becomes a, …, so each value passes under the name a once in eight steps.
  const rotate = (order: string) =>
    `${[...order].map(get).join(' ')}
        ${[...VARIABLES]
          .reverse()
          .map((name) => `(local.set $${name})`)
          .join(' ')}`;
  return `(module
  (memory (export "m") 1)
  ;; Tries count candidates, lanes (4, or 1 for the i32 twin) per pass: the digits at tail + at
  ;; (len of them) step by stride after each. They must never gain a place: the carry would run on
  ;; below the first digit, through the prefix's bytes and below address 0 (a trap). The caller,
  ;; runs() in hasher.ts, sizes count so they do not.
  (func (export "search") (param $at i32) (param $len i32) (param $blocks i32) (param $count i32)
    (param $stride i32) (param $shift i32) (param $lanes i32) (result i32)
    (local $i i32) (local $k i32) (local $p i32) (local $carry i32) (local $n i32) (local $j i32)
    (local $s i32) (local $q i32)
    ;; Keeps the i32 twin's locals in three runs like the SIMD kernel's, so their bytes line up.
    (local $spacer i64)
    (local $t1 ${v.type}) (local $x ${v.type}) (local $y ${v.type})
    ${VARIABLES.map((name) => `(local $${name} ${v.type})`).join(' ')}
    ;; Every word of the tail, big-endian and splatted, into both schedules: the words without
    ;; digits stay so for the whole call.
    (loop $words
      ${v.store(LANES, laneAddress('(local.get $k)'), v.splat(bigEndian('(local.get $k)')))}
      (br_if $words (i32.lt_u (local.tee $k (i32.add (local.get $k) ${c(4)})) ${c(128)})))
    (loop $pass
      (local.set $j ${c(0)})
      (loop $lane
        ;; The words that hold digits, into lane j (byte j of each vector).
        (local.set $k (i32.and (local.get $at) ${c(-4)}))
        (loop $copy
          (i32.store offset=${LANES} (i32.add ${laneAddress('(local.get $k)')} (local.get $j)) ${bigEndian('(local.get $k)')})
          (br_if $copy (i32.lt_u (local.tee $k (i32.add (local.get $k) ${c(4)})) (i32.add (local.get $at) (local.get $len)))))
        ;; i counts the pass's lanes: it names the next candidate.
        (if (i32.lt_u (local.tee $i (i32.add (local.get $i) ${c(1)})) (local.get $count))
          (then
            (local.set $carry (local.get $stride))
            (local.set $p (i32.add ${c(TAIL - 1)} (i32.add (local.get $at) (local.get $len))))
            (loop $digit
              (local.set $n (i32.add (i32.sub (i32.load8_u (local.get $p)) ${c(48)}) (local.get $carry)))
              (i32.store8 (local.get $p) (i32.add ${c(48)} (i32.rem_u (local.get $n) ${c(10)})))
              (local.set $carry (i32.div_u (local.get $n) ${c(10)}))
              (local.set $p (i32.sub (local.get $p) ${c(1)}))
              (br_if $digit (local.get $carry)))))
        (br_if $lane (i32.lt_u (local.tee $j (i32.add (local.get $j) ${c(4)})) (i32.shl (local.get $lanes) ${c(2)}))))
      (local.set $s ${c(0)})
      (loop $block
        ;; s: this block's schedule (byte offset from LANES); q: its starting state (from STATE).
        (local.set $q (i32.shr_u (local.get $s) ${c(3)}))
        (local.set $p (i32.add (local.get $s) ${c(256)}))
        (loop $expand
          (local.set $x ${v.load(LANES - 32, '(local.get $p)')})
          (local.set $y ${v.load(LANES - 240, '(local.get $p)')})
          ${v.store(
            LANES,
            '(local.get $p)',
            v.add(
              v.add(smallSigma('(local.get $x)', 17, 19, 10), v.load(LANES - 112, '(local.get $p)')),
              v.add(smallSigma('(local.get $y)', 7, 18, 3), v.load(LANES - 256, '(local.get $p)')),
            ),
          )}
          ;; Up to the end of this block's schedule: a multiple of 1024.
          (br_if $expand (i32.and (local.tee $p (i32.add (local.get $p) ${c(16)})) ${c(1008)})))
        ${VARIABLES.map((name, i) => `(local.set $${name} ${v.load(STATE + 16 * i, '(local.get $q)')})`).join('\n        ')}
        (local.set $p (local.get $s))
        (loop $round
          ;; K[t]: p is 16 t past this block's schedule, which starts at a multiple of 1024.
          (local.set $t1 ${v.add(
            v.add(h, bigSigma(e, 6, 11, 25)),
            v.add(
              v.xor(g, v.and(e, v.xor(f, g))),
              v.add(
                v.load(ROUND_CONSTANTS, `(i32.and (local.get $p) ${c(1008)})`),
                v.load(LANES, '(local.get $p)'),
              ),
            ),
          )})
          (local.set $d ${v.add(d, '(local.get $t1)')})
          (local.set $h ${v.add(
            '(local.get $t1)',
            v.add(bigSigma(a, 2, 13, 22), v.xor(b, v.and(v.xor(a, b), v.xor(b, cc)))),
          )})
          ${rotate('habcdefg')}
          (br_if $round (i32.and (local.tee $p (i32.add (local.get $p) ${c(16)})) ${c(1008)})))
        ;; Another block: its starting state is this one's plus the working variables.
        (if (i32.lt_u (local.tee $s (i32.add (local.get $s) ${c(1024)})) (i32.shl (local.get $blocks) ${c(10)}))
          (then
            (local.set $p (local.get $q))
            (loop $feed
              ${v.store(STATE + 128, '(local.get $p)', v.add(v.load(STATE, '(local.get $p)'), a))}
              ${rotate('bcdefgha')}
              (br_if $feed (i32.lt_u (local.tee $p (i32.add (local.get $p) ${c(16)})) (i32.add (local.get $q) ${c(128)}))))
            (br $block))))
      ;; Lanes whose digest's first word has at least 32 - shift leading zero bits: the lowest wins.
      (if (local.tee $k ${v.bitmask(
        v.eq(v.splat(c(0)), v.shr(v.add(v.load(STATE, '(local.get $q)'), a), '(local.get $shift)')),
      )})
        (then (return (i32.add (i32.sub (local.get $i) (local.get $lanes)) (i32.ctz (local.get $k))))))
      (br_if $pass (i32.lt_u (local.get $i) (local.get $count))))
    ${c(-1)}))
`;
}

export const POW_KERNEL_WAT = kernelText(true);
/** The i32 twin, assembled only to check scalar.ts against it. */
export const POW_KERNEL_SCALAR_WAT = kernelText(false);

interface Wabt {
  parseWat(
    name: string,
    text: string,
    features?: object,
  ): { toBinary(options: object): { buffer: Uint8Array }; destroy(): void };
}

let assembled: Promise<Uint8Array<ArrayBuffer>> | undefined;

/** The kernel's WebAssembly bytes (assembled once per process), checked against its i32 twin. */
export function powKernel(): Promise<Uint8Array<ArrayBuffer>> {
  assembled ??= (async () => {
    const wabt = await (createRequire(import.meta.url)('wabt') as () => Promise<Wabt>)();
    const assemble = (name: string, text: string) => {
      const module = wabt.parseWat(name, text, { simd: true });
      try {
        return new Uint8Array(module.toBinary({}).buffer);
      } finally {
        module.destroy();
      }
    };
    const simd = assemble('pow-kernel.wat', POW_KERNEL_WAT);
    const twin = assemble('pow-kernel-scalar.wat', POW_KERNEL_SCALAR_WAT);
    if (Buffer.compare(scalarKernel(simd), twin) !== 0) {
      throw new Error('src/solver/scalar.ts does not turn the SIMD kernel into its i32 twin');
    }
    return simd;
  })();
  return assembled;
}
