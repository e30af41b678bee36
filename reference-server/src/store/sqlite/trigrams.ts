/**
 * SQLite's side of choosing trigrams (../trigram-choice.ts): what its FTS5 table can answer, the
 * query it is asked, and how it draws a sample (../trigram-samples.ts). FTS5
 * reads a doclist entry for about a sixtieth of reading and checking one candidate (bench item 5
 * at 1M: 125k entries in 2.8 ms; 8,292 candidates read, checked and sorted in 11.7 ms).
 */
import { chooseTrigrams, sampleOf, type TrigramSample, trigramsOf } from '../trigram-choice.js';
import { keptSample, SAMPLE_ROWS } from '../trigram-samples.js';
import type { Connection } from './connection.js';

/** Reading one doclist entry, in candidates read and checked (see above). */
const ENTRY_COST = 1 / 60;

/** What a search asks the index for, and the share of all rows the sample says it will offer. */
export interface IndexQuery {
  match: string;
  share: number;
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
 * undefined when the index cannot answer (see indexable): the trigrams ../trigram-choice.ts
 * picks, each quoted, so that no character of the needle is FTS5 syntax.
 */
export function trigramQuery(needle: string, sample: TrigramSample): IndexQuery | undefined {
  if (!indexable(needle)) return undefined;
  const choice = chooseTrigrams(needle, sample, { entryCost: ENTRY_COST });
  return (
    choice && {
      match: choice.grams.map((gram) => `"${gram.replaceAll('"', '""')}"`).join(' AND '),
      share: choice.share,
    }
  );
}

/**
 * The connection's sample: search texts of rows at random rowids (a rowid left by an erased row
 * draws nothing, so the share that drew a row says how many rows there are).
 */
export function trigramSample(db: Connection): Promise<TrigramSample> {
  return keptSample(db, async () => {
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
  });
}
