/**
 * Counting a waitlist's rows in several ranges of one column with one statement, one subquery
 * per range, each reading its own range of an index: sign-ups per day (statements/subscribers.ts),
 * and the prefix counts positions are computed from (the stores' line.ts, domain/positions.ts).
 */
import type { Db } from './db.js';

/** Runs the subqueries (`SELECT count(*) ...`) as one statement; one count each, in order. */
export async function countEach(
  db: Pick<Db, 'get'>,
  subqueries: readonly string[],
  params: readonly unknown[],
): Promise<number[]> {
  const columns = subqueries.map((subquery, i) => `(${subquery}) AS c${i}`);
  const row = (await db.get<Record<string, number>>(`SELECT ${columns.join(', ')}`, params)) ?? {};
  return subqueries.map((_, i) => row[`c${i}`] ?? 0);
}

/** The rows counted in a range: those with their column above `after` and at most `upTo`. */
export interface Range {
  after: number;
  upTo: number;
}

/**
 * For each threshold t, how many rows have their column at most t. The thresholds are sorted and
 * each range counted covers only the part since the previous one, so the statement reads each
 * index entry at most once, however many thresholds there are. `count` answers one count per
 * range, in order.
 */
export async function countsAtMost(
  thresholds: readonly number[],
  count: (ranges: readonly Range[]) => Promise<number[]>,
): Promise<(t: number) => number> {
  const { n } = await countsAtMostEach(thresholds, ['n'], async (ranges) =>
    (await count(ranges)).map((n) => ({ n })),
  );
  return n;
}

/**
 * countsAtMost for several kinds of rows at once, the same ranges counted for each (PostgreSQL
 * counts all three kinds a position needs in one round trip): `count` answers, per range in
 * order, a count of each kind.
 */
export async function countsAtMostEach<K extends string>(
  thresholds: readonly number[],
  kinds: readonly K[],
  count: (ranges: readonly Range[]) => Promise<readonly Readonly<Record<K, number>>[]>,
): Promise<Record<K, (t: number) => number>> {
  const sorted = [...new Set(thresholds)].sort((a, b) => a - b);
  const counts = await count(
    sorted.map((upTo, i) => ({ after: i === 0 ? Number.MIN_SAFE_INTEGER : (sorted[i - 1] as number), upTo })),
  );
  const totals = (kind: K) => {
    const atMost = new Map<number, number>();
    let running = 0;
    sorted.forEach((t, i) => {
      running += counts[i]?.[kind] ?? 0;
      atMost.set(t, running);
    });
    return (t: number) => atMost.get(t) as number;
  };
  return Object.fromEntries(kinds.map((kind) => [kind, totals(kind)])) as Record<K, (t: number) => number>;
}
