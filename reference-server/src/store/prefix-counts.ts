/**
 * For each threshold t, how many rows have their column at most t (the counts positions are
 * computed from, domain/positions.ts). The thresholds are sorted and each count covers only the
 * range since the previous one, so a statement counting all the ranges at once reads each index
 * entry at most once, however many thresholds there are.
 */

/** The rows counted in a range: those with their column above `after` and at most `upTo`. */
export interface Range {
  after: number;
  upTo: number;
}

/** `count` answers one count per range, in order: each adapter counts them in one statement. */
export async function countsAtMost(
  thresholds: readonly number[],
  count: (ranges: readonly Range[]) => Promise<number[]>,
): Promise<(t: number) => number> {
  const sorted = [...new Set(thresholds)].sort((a, b) => a - b);
  const counts = await count(
    sorted.map((upTo, i) => ({ after: i === 0 ? Number.MIN_SAFE_INTEGER : (sorted[i - 1] as number), upTo })),
  );
  const totals = new Map<number, number>();
  let running = 0;
  sorted.forEach((t, i) => {
    running += counts[i] ?? 0;
    totals.set(t, running);
  });
  return (t) => totals.get(t) as number;
}
