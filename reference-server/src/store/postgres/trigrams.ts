/**
 * PostgreSQL's side of choosing trigrams (../trigram-choice.ts). pg_trgm takes the trigrams of a
 * LIKE pattern from its words, runs of letters and digits, so `LIKE '%a.g%'` asks it for nothing
 * useful; but `%abc%` of three ASCII letters or digits is exactly the trigram `abc`. Those are
 * the trigrams a search may ask for, each as a LIKE of its own that the GIN index answers, and
 * the needle itself is then checked with strpos, which the index cannot answer: written as one
 * LIKE of the whole needle, the index reads the posting list of every trigram in it (at 1M, 22 ms
 * for `maria.garcia`, against 7 ms for two). A posting list entry costs about a thirtieth of
 * reading and checking one candidate from the table (bench item 5 at 1M: 183k entries in 7.2 ms;
 * 8,292 candidates read and checked in about 10 ms).
 */
import { chooseTrigrams, sampleOf, type TrigramSample } from '../trigram-choice.js';
import { keptSample, SAMPLE_ROWS } from '../trigram-samples.js';
import type { Connection } from './connection.js';

/** Reading one posting list entry, in candidates read and checked (see above). */
const ENTRY_COST = 1 / 30;

/** A trigram that `%gram%` asks pg_trgm for as it is. */
const asItIs = (gram: string) => /^[a-z0-9]{3}$/.test(gram);

/**
 * The LIKE patterns whose rows include every row whose search text contains `needle` (each a
 * trigram as `%abc%`), or undefined when no trigram of the needle can be asked for that way.
 */
export function trigramPatterns(needle: string, sample: TrigramSample): string[] | undefined {
  return chooseTrigrams(needle, sample, { entryCost: ENTRY_COST, usable: asItIs })?.grams.map(
    (gram) => `%${gram}%`,
  );
}

/** Pages a sample reads: a subscriber's row takes a few hundred bytes, so some 20 to 30 rows each. */
const SAMPLE_PAGES = 100;

/**
 * The database's sample: the search texts on randomly chosen pages of the table (TABLESAMPLE
 * SYSTEM), about SAMPLE_PAGES of them by the table's size on disk, which PostgreSQL knows without
 * statistics (a table filled a moment ago has none yet).
 */
export function trigramSample(db: Connection): Promise<TrigramSample> {
  return keptSample(db.database, async () => {
    const pages =
      (
        await db.get<{ n: number }>(
          "SELECT pg_relation_size('subscribers') / current_setting('block_size')::bigint AS n",
        )
      )?.n ?? 0;
    const percent = pages <= SAMPLE_PAGES ? 100 : (100 * SAMPLE_PAGES) / pages;
    const rows = await db.all<{ email_search: string }>(
      'SELECT email_search FROM subscribers TABLESAMPLE SYSTEM ($1) LIMIT $2',
      [percent, 4 * SAMPLE_ROWS],
    );
    const texts = rows.map((r) => r.email_search);
    return sampleOf(texts, Math.round((texts.length * 100) / percent));
  });
}
