// Generates the JSON test vectors every package's tests read. PoW digests come from node:crypto
// and key checksums from zlib.crc32, implementations independent of the protocol package's own.
// Email expectations are written out by hand below. Run: node scripts/generate-vectors.mjs
import { createHash, randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { crc32 } from 'node:zlib';

const out = (name, data) =>
  writeFileSync(new URL(`../vectors/${name}`, import.meta.url), `${JSON.stringify(data, null, 2)}\n`);

// ------------------------------------------------------------------ Proof of Work
const sha = (text) => createHash('sha256').update(text, 'utf8').digest();
const zeroBits = (digest) => {
  let bits = 0;
  for (const byte of digest) {
    if (byte === 0) bits += 8;
    else return bits + Math.clz32(byte) - 24;
  }
  return bits;
};

const nonces = [
  'abc',
  // 63 characters: `nonce:` fills exactly one SHA-256 block, the layout the reference server issues.
  'p1.lxq2k0.Qm9vdHN0cmFwLXZlY3Rvci1ub25jZQ.c2lnbmF0dXJlLXBsYWNlaG9sZA',
  'n'.repeat(256),
  'nonce:with:colons',
  'nonce-é-ü-中',
  'n'.repeat(55),
  'n'.repeat(56),
];
const solutions = [0, 1, 9, 10, 99, 12345, 2 ** 32, 2 ** 53 - 1];
const digests = [];
for (const nonce of nonces) {
  for (const solution of solutions) {
    const input = `${nonce}:${solution}`;
    const digest = sha(input);
    digests.push({
      nonce,
      solution,
      input,
      digest: digest.toString('hex'),
      leading_zero_bits: zeroBits(digest),
    });
  }
}

// The first solution reaching each bit count, so verify is tested exactly at its threshold.
const thresholds = [];
const searchNonce = 'vector-search';
let best = -1;
for (let solution = 0; best < 22; solution++) {
  const digest = sha(`${searchNonce}:${solution}`);
  const bits = zeroBits(digest);
  if (bits > best) {
    for (let k = best + 1; k <= bits; k++) {
      thresholds.push({
        nonce: searchNonce,
        solution,
        digest: digest.toString('hex'),
        leading_zero_bits: bits,
        first_for: k,
      });
    }
    best = bits;
  }
}

const verify = [];
for (const t of thresholds.filter((t) => t.first_for >= 1 && t.first_for <= 22)) {
  verify.push({
    nonce: t.nonce,
    solution: t.solution,
    difficulty: t.leading_zero_bits,
    valid: true,
    note: 'exactly at its bit count',
  });
  verify.push({
    nonce: t.nonce,
    solution: t.solution,
    difficulty: t.leading_zero_bits + 1,
    valid: false,
    note: 'one bit short',
  });
}
const some = thresholds.find((t) => t.leading_zero_bits >= 8);
verify.push(
  { nonce: some.nonce, solution: some.solution, difficulty: 1, valid: true, note: 'minimum difficulty' },
  {
    nonce: some.nonce,
    solution: some.solution,
    difficulty: 0,
    valid: false,
    note: 'difficulty below 1 is not a difficulty',
  },
  {
    nonce: some.nonce,
    solution: some.solution,
    difficulty: 33,
    valid: false,
    note: 'difficulty above 32 is not a difficulty',
  },
  {
    nonce: some.nonce,
    solution: some.solution,
    difficulty: 8.5,
    valid: false,
    note: 'difficulty must be an integer',
  },
  {
    nonce: `${some.nonce}x`,
    solution: some.solution,
    difficulty: some.leading_zero_bits,
    valid: zeroBits(sha(`${some.nonce}x:${some.solution}`)) >= some.leading_zero_bits,
    note: 'another nonce',
  },
  { nonce: some.nonce, solution: -1, difficulty: 1, valid: false, note: 'negative solution' },
  { nonce: some.nonce, solution: 1.5, difficulty: 1, valid: false, note: 'fractional solution' },
  { nonce: some.nonce, solution: 2 ** 53, difficulty: 1, valid: false, note: 'solution ≥ 2^53' },
  {
    nonce: some.nonce,
    solution: String(some.solution),
    difficulty: 1,
    valid: false,
    note: 'solution as a string',
  },
  { nonce: some.nonce, solution: null, difficulty: 1, valid: false, note: 'solution null' },
);

const bitCounts = [
  ['00'.repeat(32), 256],
  [`80${'00'.repeat(31)}`, 0],
  [`7f${'ff'.repeat(31)}`, 1],
  [`01${'ff'.repeat(31)}`, 7],
  [`00ff${'00'.repeat(30)}`, 8],
  [`0001${'ff'.repeat(30)}`, 15],
  [`000000008${'0'.repeat(55)}`, 32],
  [`0000000001${'0'.repeat(54)}`, 39],
  [`${'00'.repeat(31)}01`, 255],
].map(([digest, bits]) => ({ digest, leading_zero_bits: bits }));

out('pow.json', {
  description:
    'SHA-256 over UTF-8 of nonce + ":" + solution (decimal). `digests`: digest and leading zero bits per input; `bit_counts`: leading zero bits of raw digests; `verify`: expected verify(nonce, solution, difficulty). Generated with node:crypto.',
  digests,
  thresholds,
  bit_counts: bitCounts,
  verify,
});

// ------------------------------------------------------------------ API keys
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const base62 = (n, width) => {
  let s = '';
  do {
    s = BASE62[n % 62] + s;
    n = Math.floor(n / 62);
  } while (n > 0);
  return s.padStart(width, '0');
};
const secret = () => {
  let s = '';
  while (s.length < 32) {
    for (const b of randomBytes(64)) if (b < 248 && s.length < 32) s += BASE62[b % 62];
  }
  return s;
};
const makeKey = (body = `wlk_live_${secret()}`) => body + base62(crc32(Buffer.from(body)), 6);
const valid = [];
for (let i = 0; i < 8; i++) valid.push(makeKey());
let padded;
while (!padded) {
  const k = makeKey();
  if (k[41] === '0') padded = k; // checksum needs left-padding
}
valid.push(padded, makeKey(`wlk_live_${'0'.repeat(32)}`), makeKey(`wlk_live_${'z'.repeat(32)}`));
const flip = (key, index) => {
  const c = key[index];
  const next = BASE62[(BASE62.indexOf(c) + 1) % 62];
  return key.slice(0, index) + next + key.slice(index + 1);
};
const k0 = valid[0];
const broken = [
  { value: flip(k0, 12), problem: 'checksum', note: 'one secret character changed' },
  { value: flip(k0, 40), problem: 'checksum', note: 'last secret character changed' },
  { value: flip(k0, 46), problem: 'checksum', note: 'checksum character changed' },
  {
    value: `${k0.slice(0, 20)}${k0[21]}${k0[20]}${k0.slice(22)}`,
    problem: 'checksum',
    note: 'two characters swapped',
  },
  { value: k0.replace('wlk_live_', 'wlk_test_'), problem: 'prefix', note: 'another prefix' },
  { value: k0.replace('wlk_live_', 'WLK_LIVE_'), problem: 'prefix', note: 'prefix in upper case' },
  { value: k0.slice(0, 46), problem: 'length', note: 'truncated by one character' },
  { value: `${k0}a`, problem: 'length', note: 'one character too many' },
  { value: `${k0} `, problem: 'length', note: 'trailing space' },
  { value: `${k0.slice(0, 20)}-${k0.slice(21)}`, problem: 'characters', note: 'a character outside base62' },
  { value: `${k0.slice(0, 20)}é${k0.slice(21)}`, problem: 'characters', note: 'a non-ASCII character' },
  { value: '', problem: 'prefix', note: 'empty' },
  { value: 'wlk_live_', problem: 'length', note: 'prefix only' },
  { value: `Bearer ${k0}`, problem: 'prefix', note: 'scheme pasted with the key' },
];
out('api-keys.json', {
  description:
    'wlk_live_ + 32 base62 + 6 base62 (0-9A-Za-z, left-padded with 0) of CRC-32 (zlib) of everything before. `listed` is the first 12 characters. Generated with node:zlib crc32.',
  valid: valid.map((value) => ({
    value,
    listed: value.slice(0, 12),
    checksum: value.slice(-6),
    crc32: crc32(Buffer.from(value.slice(0, 41))),
  })),
  broken,
});

// ------------------------------------------------------------------ referral codes
out('referral-codes.json', {
  description:
    'Referral codes: 6 characters of 23456789ABCDEFGHJKLMNPQRSTUVWXYZ, matched case-insensitively.',
  cases: [
    { input: 'ABC234', normalized: 'ABC234' },
    { input: 'abc234', normalized: 'ABC234' },
    { input: 'zzzzzz', normalized: 'ZZZZZZ' },
    { input: '222222', normalized: '222222' },
    { input: 'ABC23', normalized: null, note: 'too short' },
    { input: 'ABC2345', normalized: null, note: 'too long' },
    { input: 'ABC0O1', normalized: null, note: '0, O and 1 are not in the alphabet' },
    { input: 'ABCDEI', normalized: null, note: 'I is not in the alphabet' },
    { input: 'abcdeo', normalized: null, note: 'o upper-cases to O, which is not in the alphabet' },
    { input: 'ABC 23', normalized: null, note: 'space' },
    { input: ' ABC23', normalized: null, note: 'leading space' },
    { input: '', normalized: null, note: 'empty' },
    { input: 'ÄBC234', normalized: null, note: 'non-ASCII' },
    { input: 123456, normalized: null, note: 'not a string' },
    { input: null, normalized: null, note: 'null' },
  ],
});

// ------------------------------------------------------------------ email
const ok = (input, normalized, note, email = input.trim()) => ({
  input,
  valid: true,
  email,
  normalized,
  note,
});
const no = (input, note) => ({ input, valid: false, note });
const label63 = 'a'.repeat(63);
const domain189 = `${label63}.${label63}.${'b'.repeat(57)}.com`; // 63+1+63+1+57+4 = 189
const emails = [
  ok('ada@example.com', 'ada@example.com', 'plain address'),
  ok(
    'Ada.Lovelace@Example.COM',
    'ada.lovelace@example.com',
    'case preserved when stored, lowered when normalised',
  ),
  ok('  ada@example.com  ', 'ada@example.com', 'surrounding spaces trimmed'),
  ok('\tada@example.com\r\n', 'ada@example.com', 'tabs and line breaks around are trimmed'),
  ok(
    'first.last+tag@sub.example.co.uk',
    'first.last+tag@sub.example.co.uk',
    'dots, plus tag, several labels',
  ),
  ok("!#$%&'*+-/=?^_`{|}~@example.com", "!#$%&'*+-/=?^_`{|}~@example.com", 'every atext special character'),
  ok("o'reilly@example.ie", "o'reilly@example.ie", 'apostrophe'),
  ok('a-b_c@example.com', 'a-b_c@example.com', 'hyphen and underscore in the local part'),
  ok('x@example.io', 'x@example.io', 'one-character local part'),
  ok('a@b.co', 'a@b.co', 'short domain'),
  ok('user@sub-domain.example.com', 'user@sub-domain.example.com', 'hyphen inside a label'),
  ok('user@123.example.com', 'user@123.example.com', 'numeric label that is not the last'),
  ok('user@EXAMPLE.com', 'user@example.com', 'domain lower-cased'),
  ok('USER@EXAMPLE.COM', 'user@example.com', 'whole address lower-cased'),
  ok('user@xn--bcher-kva.example', 'user@xn--bcher-kva.example', 'domain already in punycode'),
  ok('user@bücher.example', 'user@xn--bcher-kva.example', 'IDN converted to punycode'),
  ok('User@BÜCHER.example', 'user@xn--bcher-kva.example', 'IDN in upper case'),
  ok('test@münchen.de', 'test@xn--mnchen-3ya.de', 'IDN German'),
  ok('info@例え.テスト', 'info@xn--r8jz45g.xn--zckzah', 'IDN Japanese (IANA test domain)'),
  ok('user@ｅxample.com', 'user@example.com', 'full-width letter mapped by UTS #46'),
  ok('"john doe"@example.com', '"john doe"@example.com', 'quoted local part with a space'),
  ok('"john..doe"@example.com', '"john..doe"@example.com', 'quoted local part with consecutive dots'),
  ok('"a@b"@example.com', '"a@b"@example.com', 'quoted local part holding an @'),
  ok('"quote\\"inside"@example.com', '"quote\\"inside"@example.com', 'quoted-pair escaping a double quote'),
  ok('"back\\\\slash"@example.com', '"back\\\\slash"@example.com', 'quoted-pair escaping a backslash'),
  ok('" "@example.com', '" "@example.com', 'quoted single space'),
  ok('""@example.com', '""@example.com', 'empty quoted string (RFC 5322 allows it)'),
  ok('"Mixed.Case"@Example.com', '"mixed.case"@example.com', 'quoted local part lower-cased too'),
  ok(`${'a'.repeat(64)}@example.com`, `${'a'.repeat(64)}@example.com`, 'local part of exactly 64'),
  ok(`u@${label63}.com`, `u@${label63}.com`, 'label of exactly 63'),
  ok(`${'a'.repeat(64)}@${domain189}`, `${'a'.repeat(64)}@${domain189}`, 'address of exactly 254'),
  ok('u@a.b-c.example', 'u@a.b-c.example', 'short labels'),
  ok('user@example.museum', 'user@example.museum', 'long TLD'),
  no('', 'empty'),
  no('   ', 'only white space'),
  no('plainaddress', 'no @'),
  no('@example.com', 'empty local part'),
  no('user@', 'empty domain'),
  no('user@localhost', 'domain without a dot'),
  no('a@b', 'domain without a dot, short'),
  no('user@example.com.', 'trailing dot in the domain'),
  no('user.@example.com', 'trailing dot in the local part'),
  no('.user@example.com', 'leading dot in the local part'),
  no('us..er@example.com', 'consecutive dots in the local part'),
  no('user@.example.com', 'leading dot in the domain'),
  no('user@exa..mple.com', 'consecutive dots in the domain'),
  no('user name@example.com', 'space in an unquoted local part'),
  no('user@exam ple.com', 'space in the domain'),
  no('user\n@example.com', 'line break inside'),
  no('John Doe <john@example.com>', 'display name'),
  no('user@example.com (comment)', 'trailing comment'),
  no('user(comment)@example.com', 'comment in the local part'),
  no('user@[192.168.0.1]', 'domain literal'),
  no('user@192.168.0.1', 'IPv4 address as domain'),
  no('user@example.123', 'numeric top-level label'),
  no(`${'a'.repeat(65)}@example.com`, 'local part of 65'),
  no(`${'a'.repeat(64)}@a${domain189}`, 'address of 255'),
  no(`u@${label63}a.com`, 'label of 64'),
  no('user@-example.com', 'label starting with a hyphen'),
  no('user@example-.com', 'label ending with a hyphen'),
  no('user@exa_mple.com', 'underscore in the domain'),
  no('user@exa!mple.com', 'atext special in the domain is not a host name'),
  no('user@xn--.com', 'empty punycode label'),
  no('usér@example.com', 'non-ASCII local part (SMTPUTF8 is not accepted)'),
  no('"unclosed@example.com', 'unclosed quote'),
  no('"a"b@example.com', 'quoted string followed by an atom'),
  no('a"b"@example.com', 'atom followed by a quoted string'),
  no('"line\nbreak"@example.com', 'line break inside a quoted string'),
  no('\\user@example.com', 'backslash outside quotes'),
  no('user@@example.com', 'two @'),
  no('user;other@example.com', 'semicolon in the local part'),
  no('user@example.com,other@example.com', 'two addresses'),
  no('user@example.com\u0000', 'NUL after the domain'),
  no('user@bücher..example', 'IDN with consecutive dots'),
  no('user@例え.テスト.', 'IDN with a trailing dot'),
  no('user@💩.la', 'emoji domain (not IDNA 2008)'),
  no(`${'a'.repeat(5000)}@example.com`, 'hostile length'),
];
out('emails.json', {
  description:
    'docs/subscribers.md#email-addresses. `email`: trimmed, case preserved (stored). `normalized`: trimmed, domain in punycode, lower-cased (dedupe key). Length limits apply to the ASCII form.',
  cases: emails,
});
console.log(
  `vectors: ${digests.length} digests, ${thresholds.length} thresholds, ${verify.length} verify, ${valid.length}+${broken.length} keys, ${emails.length} emails`,
);
