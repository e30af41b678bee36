/**
 * Which trigrams of a search needle the trigram index (subscribers_fts) is asked for. Any of them
 * will do for correctness: a text containing the needle contains every trigram of it, so the rows
 * having some of them include every match, and line.ts keeps only rows that really contain the
 * needle. What the choice changes is the cost, of two kinds: FTS5 reads the doclist of each
 * trigram asked for (`ia.` is in a quarter of the bench's addresses), and every candidate those
 * doclists leave is then read from the table and checked, which costs about sixty doclist entries
 * (bench item 5 at 1M: 125k entries in 2.8 ms, 8,292 candidates read, checked and sorted in 11.7).
 * How common a trigram is, and how much it narrows the others, FTS5 could only say by reading its
 * doclist, so a sample of the search texts says it instead: a few thousand rows, drawn again
 * every few minutes.
 *
 * The trigrams of one word travel together (`mar`, `ari` and `ria` are all in `maria`): asking
 * for the next rarest often narrows nothing, so each pick is the trigram that lowers the
 * estimated cost most given those already picked, and the picking stops when none lowers it.
 */
import type { Connection } from './connection.js';

/** How many search texts a sample draws, and how long it is used. */
const SAMPLE_ROWS = 2000;
const SAMPLE_MS = 10 * 60 * 1000;

/** Reading one doclist entry, in candidates read and checked (see above). */
const ENTRY_COST = 1 / 60;

/** The search texts of a sample, in how many of them each trigram occurs, and of how many rows. */
export interface TrigramSample {
  texts: readonly string[];
  counts: ReadonlyMap<string, number>;
  rows: number;
}

/** What a search asks the index for, and the share of all rows the sample says it will offer. */
export interface IndexQuery {
  match: string;
  share: number;
}

/** The distinct trigrams of `text`, in order of first occurrence, by code point as FTS5 counts. */
export function trigramsOf(text: string): string[] {
  const chars = Array.from(text);
  const grams = new Set<string>();
  for (let at = 0; at + 3 <= chars.length; at++) grams.add(chars.slice(at, at + 3).join(''));
  return [...grams];
}

/**
 * Whether the trigram index can answer for `needle`: a needle under three characters has no
 * trigram, and FTS5 reads a query up to a NUL only.
 */
export function indexable(needle: string): boolean {
  return !needle.includes('\0') && trigramsOf(needle).length > 0;
}

/**
 * The FTS5 query whose matches include every row whose search text contains `needle`, or
 * undefined when the index cannot answer (see indexable): the needle's trigrams picked greedily
 * by the cost they leave in the sample (see above), each quoted, so that no character of the
 * needle is FTS5 syntax.
 */
export function trigramQuery(needle: string, sample: TrigramSample): IndexQuery | undefined {
  if (!indexable(needle)) return undefined;
  const seen = (gram: string) => sample.counts.get(gram) ?? 0;
  const left = trigramsOf(needle);
  const chosen: string[] = [];
  let found = sample.texts;
  let entries = 0;
  let cost = Number.POSITIVE_INFINITY;
  for (;;) {
    let best: { at: number; cost: number } | undefined;
    for (const [at, gram] of left.entries()) {
      // Before the first pick the counts say it: each text counts a trigram once.
      const narrowed = chosen.length === 0 ? seen(gram) : found.filter((text) => text.includes(gram)).length;
      const estimate = (entries + seen(gram)) * ENTRY_COST + narrowed;
      if (estimate < (best?.cost ?? cost)) best = { at, cost: estimate };
    }
    if (!best) break;
    const [gram] = left.splice(best.at, 1) as [string];
    chosen.push(gram);
    found = found.filter((text) => text.includes(gram));
    entries += seen(gram);
    cost = best.cost;
  }
  return {
    match: chosen.map((gram) => `"${gram.replaceAll('"', '""')}"`).join(' AND '),
    share: sample.texts.length === 0 ? 0 : found.length / sample.texts.length,
  };
}

/** Counts the trigrams of a sample of search texts drawn from `rows` rows. */
export function sampleOf(texts: readonly string[], rows = texts.length): TrigramSample {
  const counts = new Map<string, number>();
  for (const text of texts)
    for (const gram of trigramsOf(text)) counts.set(gram, (counts.get(gram) ?? 0) + 1);
  return { texts, counts, rows };
}

const samples = new WeakMap<Connection, { sample: Promise<TrigramSample>; at: number }>();

/**
 * The connection's current sample, drawn when missing or old: search texts of rows at random
 * rowids (a rowid left by an erased row draws nothing, so the share that drew a row says how
 * many rows there are). It only chooses how to search: minutes old, it changes no answer.
 */
export function trigramSample(db: Connection): Promise<TrigramSample> {
  const now = performance.now();
  const current = samples.get(db);
  if (current && now - current.at < SAMPLE_MS) return current.sample;
  const sample = (async () => {
    const top = (await db.get<{ top: number | null }>('SELECT max(rowid) AS top FROM subscribers'))?.top ?? 0;
    const rowids = new Set(
      Array.from({ length: Math.min(SAMPLE_ROWS, top) }, () => 1 + Math.floor(Math.random() * top)),
    );
    const rows = await db.all<{ email_search: string }>(
      'SELECT email_search FROM subscribers WHERE rowid IN (SELECT value FROM json_each(?))',
      [JSON.stringify([...rowids])],
    );
    const texts = rows.map((r) => r.email_search);
    return sampleOf(texts, rowids.size === 0 ? 0 : Math.round((top * texts.length) / rowids.size));
  })();
  samples.set(db, { sample, at: now });
  sample.catch(() => samples.delete(db));
  return sample;
}
