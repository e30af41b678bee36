/**
 * Which trigrams of a search needle a store's trigram index is asked for (SQLite's FTS5 table,
 * PostgreSQL's pg_trgm index). Any of them will do for correctness: a text containing the needle
 * contains every trigram of it, so the rows having some of them include every match, and the
 * stores keep only rows that really contain the needle. What the choice changes is the cost, of
 * two kinds: the index reads the list of rows of each trigram asked for (`ia.` is in a quarter
 * of the bench's addresses), and every candidate those lists leave is then read from the table
 * and checked, which costs as much as reading tens of list entries (`entryCost`, measured per
 * store). How common a trigram is, and how much it narrows the others, the index could only say
 * by reading its list, so a sample of the search texts says it instead.
 *
 * The trigrams of one word travel together (`mar`, `ari` and `ria` are all in `maria`): asking
 * for the next rarest often narrows nothing, so each pick is the trigram that lowers the
 * estimated cost most given those already picked, and the picking stops when none lowers it.
 * Pure: the stores draw the samples.
 */

/** The search texts of a sample, in how many of them each trigram occurs, and of how many rows. */
export interface TrigramSample {
  texts: readonly string[];
  counts: ReadonlyMap<string, number>;
  rows: number;
}

/** The trigrams to ask for, and the share of all rows the sample says they will offer. */
export interface TrigramChoice {
  grams: string[];
  share: number;
}

/** The distinct trigrams of `text`, in order of first occurrence, by code point. */
export function trigramsOf(text: string): string[] {
  const chars = Array.from(text);
  const grams = new Set<string>();
  for (let at = 0; at + 3 <= chars.length; at++) grams.add(chars.slice(at, at + 3).join(''));
  return [...grams];
}

/** Counts the trigrams of a sample of search texts drawn from `rows` rows. */
export function sampleOf(texts: readonly string[], rows = texts.length): TrigramSample {
  const counts = new Map<string, number>();
  for (const text of texts)
    for (const gram of trigramsOf(text)) counts.set(gram, (counts.get(gram) ?? 0) + 1);
  return { texts, counts, rows };
}

/**
 * The needle's trigrams to ask for, among those the index can answer (`usable`), picked greedily
 * by the cost they leave in the sample (see above); undefined when none is usable. `entryCost`:
 * reading one list entry, in candidates read and checked.
 */
export function chooseTrigrams(
  needle: string,
  sample: TrigramSample,
  { entryCost, usable = () => true }: { entryCost: number; usable?: (gram: string) => boolean },
): TrigramChoice | undefined {
  const seen = (gram: string) => sample.counts.get(gram) ?? 0;
  const left = trigramsOf(needle).filter(usable);
  if (left.length === 0) return undefined;
  const grams: string[] = [];
  let found = sample.texts;
  let entries = 0;
  let cost = Number.POSITIVE_INFINITY;
  for (;;) {
    let best: { at: number; cost: number } | undefined;
    for (const [at, gram] of left.entries()) {
      // Before the first pick the counts say it: each text counts a trigram once.
      const narrowed = grams.length === 0 ? seen(gram) : found.filter((text) => text.includes(gram)).length;
      const estimate = (entries + seen(gram)) * entryCost + narrowed;
      if (estimate < (best?.cost ?? cost)) best = { at, cost: estimate };
    }
    if (!best) break;
    const [gram] = left.splice(best.at, 1) as [string];
    grams.push(gram);
    found = found.filter((text) => text.includes(gram));
    entries += seen(gram);
    cost = best.cost;
  }
  return { grams, share: sample.texts.length === 0 ? 0 : found.length / sample.texts.length };
}
