/**
 * Which trigrams of a search needle the trigram index (subscribers_fts) is asked for. Any of them
 * will do for correctness: a text containing the needle contains every trigram of it, so the rows
 * having some of them include every match, and line.ts keeps only rows that really contain the
 * needle. What the choice changes is the cost. FTS5 reads the doclist of each trigram asked for,
 * and the doclist of a common trigram is long (`ia.` is in a quarter of the bench's addresses):
 * two rare trigrams find as few candidates as all of them, reading a fraction of the index. How
 * rare a trigram is, FTS5 can only say by reading its doclist, so a sample of the search texts
 * says it instead: a few thousand rows, drawn again every few minutes.
 */
import type { Connection } from './connection.js';

/** How many search texts a sample draws, and how long it is used. */
const SAMPLE_ROWS = 2000;
const SAMPLE_MS = 10 * 60 * 1000;

/** Trigrams asked for per search: at least two when the needle has them, at most four. */
const FEWEST = 2;
const MOST = 4;

/** The search texts of a sample, and in how many of them each trigram occurs. */
export interface TrigramSample {
  texts: readonly string[];
  counts: ReadonlyMap<string, number>;
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
 * undefined when the index cannot answer (see indexable). It asks for the needle's trigrams the
 * sample saw least often, adding the next rarest while, in the sample, those asked for still
 * find more texts than the needle does (rows the exact test would then read and drop). Each is
 * quoted, so that no character of the needle is FTS5 syntax.
 */
export function trigramQuery(needle: string, sample: TrigramSample): string | undefined {
  if (!indexable(needle)) return undefined;
  const seen = (gram: string) => sample.counts.get(gram) ?? 0;
  const rarest = trigramsOf(needle)
    .map((gram, at) => ({ gram, at }))
    .sort((a, b) => seen(a.gram) - seen(b.gram) || a.at - b.at)
    .map((g) => g.gram);
  const matches = sample.texts.filter((text) => text.includes(needle)).length;
  const chosen: string[] = [];
  let found = sample.texts;
  for (const gram of rarest) {
    if (chosen.length >= MOST || (chosen.length >= FEWEST && found.length <= matches)) break;
    chosen.push(gram);
    found = found.filter((text) => text.includes(gram));
  }
  return chosen.map((gram) => `"${gram.replaceAll('"', '""')}"`).join(' AND ');
}

/** Counts the trigrams of a sample of search texts. */
export function sampleOf(texts: readonly string[]): TrigramSample {
  const counts = new Map<string, number>();
  for (const text of texts)
    for (const gram of trigramsOf(text)) counts.set(gram, (counts.get(gram) ?? 0) + 1);
  return { texts, counts };
}

const samples = new WeakMap<Connection, { sample: Promise<TrigramSample>; at: number }>();

/**
 * The connection's current sample, drawn when missing or old: search texts of rows at random
 * rowids (a rowid left by an erased row draws nothing). It only chooses trigrams: minutes old,
 * it changes no answer.
 */
export function trigramSample(db: Connection): Promise<TrigramSample> {
  const now = performance.now();
  const current = samples.get(db);
  if (current && now - current.at < SAMPLE_MS) return current.sample;
  const sample = (async () => {
    const top = (await db.get<{ top: number | null }>('SELECT max(rowid) AS top FROM subscribers'))?.top ?? 0;
    const rowids = Array.from(
      { length: Math.min(SAMPLE_ROWS, top) },
      () => 1 + Math.floor(Math.random() * top),
    );
    const rows = await db.all<{ email_search: string }>(
      'SELECT email_search FROM subscribers WHERE rowid IN (SELECT value FROM json_each(?))',
      [JSON.stringify(rowids)],
    );
    return sampleOf(rows.map((r) => r.email_search));
  })();
  samples.set(db, { sample, at: now });
  sample.catch(() => samples.delete(db));
  return sample;
}
