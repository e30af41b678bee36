/**
 * Which trigrams a search asks SQLite's trigram index for (store/sqlite/trigrams.ts), without a
 * database: the choice changes the cost of `q`, never its answer (search-index.test.ts and
 * list.test.ts show the answers), on SQLite as on PostgreSQL (store/postgres/trigrams.ts). The samples here are shaped like the bench's addresses (first.lastN@domain), where the
 * trigrams of one name always travel together.
 */
import { describe, expect, it } from 'vitest';
import { trigramPatterns } from '../src/store/postgres/trigrams.js';
import { type IndexQuery, trigramQuery } from '../src/store/sqlite/trigrams.js';
import { sampleOf } from '../src/store/trigram-choice.js';

const FIRST = [
  'maria',
  'ana',
  'sofia',
  'mia',
  'emma',
  'james',
  'li',
  'noah',
  'oliver',
  'lucas',
  'ivan',
  'zoe',
];
const LAST = ['garcia', 'smith', 'kim', 'nguyen', 'muller', 'rossi', 'silva', 'khan', 'cohen', 'dubois'];

/** Every first name with every last name, `copies` times over: the counts are exact, not drawn. */
function addresses(copies: number): string[] {
  const texts: string[] = [];
  for (let n = 0; n < copies; n++)
    for (const first of FIRST) for (const last of LAST) texts.push(`${first}.${last}${n}@example.org`);
  return texts;
}

const asked = (query: IndexQuery | undefined) => query?.match.split(' AND ').map((gram) => JSON.parse(gram));

describe('the trigrams a search asks the index for', () => {
  it('pairs the rarest trigram with the one that narrows it most, not with the next rarest', () => {
    // `a.g` (the five first names ending in a, before garcia) is the rarest; `mar`, `ari` and
    // `ria` come next but only ever appear together; `mar` is what narrows `a.g` to maria.garcia.
    const sample = sampleOf(addresses(20));
    expect(asked(trigramQuery('maria.garcia', sample))).toEqual(['a.g', 'mar']);
  });

  it('asks for the same pair from any sample a million such rows would give', () => {
    // The bench's waitlist once drew a sample where `.ga` looked rarer than `mar`, and asking for
    // the next rarest then found five times the candidates. Samples here skew the counts further.
    const base = addresses(20);
    for (const drop of ['mar', '.ga', 'rci', 'ia.']) {
      const skewed = base.filter((text, i) => !(text.includes(drop) && i % 3 === 0));
      expect(asked(trigramQuery('maria.garcia', sampleOf(skewed)))).toEqual(['a.g', 'mar']);
    }
  });

  it('stops at one trigram when no other narrows its rows', () => {
    expect(asked(trigramQuery('garcia', sampleOf(addresses(20))))).toEqual(['gar']);
    expect(asked(trigramQuery('smith', sampleOf(addresses(20))))).toEqual(['smi']);
  });

  it('asks for a trigram the sample never saw on its own, the cheapest there is', () => {
    expect(asked(trigramQuery('ana.quux', sampleOf(addresses(5))))).toEqual(['a.q']);
  });

  it('adds a common trigram when it removes more candidates than its doclist costs to read', () => {
    // `ana.` is in a twelfth of the rows, `.kim` in a tenth: each alone leaves its whole share.
    expect(asked(trigramQuery('ana.kim', sampleOf(addresses(20))))).toHaveLength(2);
  });

  it('says the share of the sample its trigrams find, which the plan weighs against a scan', () => {
    // 2,400 texts, maria.garcia in 20 of them; `example` in all.
    expect(trigramQuery('maria.garcia', sampleOf(addresses(20)))?.share).toBe(20 / 2400);
    expect(trigramQuery('example', sampleOf(addresses(20)))?.share).toBe(1);
    expect(trigramQuery('maria', sampleOf([]))?.share).toBe(0);
  });

  it('quotes every trigram, so no character of the needle is FTS5 syntax', () => {
    expect(trigramQuery('a"b*c', sampleOf(['a"b*c@example.org']))?.match).toBe('"a""b"');
  });

  it('leaves needles without a trigram, or with a NUL, to the scan', () => {
    const sample = sampleOf(addresses(1));
    expect(trigramQuery('ma', sample)).toBeUndefined();
    expect(trigramQuery('mar\0ia', sample)).toBeUndefined();
  });

  it('asks PostgreSQL only for trigrams of three ASCII letters or digits, each as a LIKE of its own', () => {
    // pg_trgm reads `%a.g%` as the words `a` and `g`: no trigram it can look up as it is.
    const sample = sampleOf(addresses(20));
    expect(trigramPatterns('maria.garcia', sample)).toEqual(['%mar%', '%gar%']);
    expect(trigramPatterns('a.g', sample)).toBeUndefined();
    expect(trigramPatterns('ß.com', sample)).toEqual(['%com%']);
    expect(trigramPatterns('%_\\', sample)).toBeUndefined();
  });
});
