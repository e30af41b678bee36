/**
 * When the cleanup after erasures runs (docs/self-hosting.md#what-erasure-removes). An erasure answers as
 * soon as it has committed; removing the old copies of what it deleted from the database's
 * files is a cleanup run later, in the background:
 * - a cleanup begins at once when none began within the store's spacing (a lone erasure is
 *   cleaned up right away); otherwise it begins when the spacing since the last one is over, and
 *   every erasure of the meantime shares it: many erasures in a minute cost one PostgreSQL
 *   VACUUM, not one each;
 * - an attempt that cannot finish (a reader still holds data from before the erasure) is tried
 *   again after a wait that doubles from 50 ms up to 5 s, for as long as it takes;
 * - a cleanup not finished 5 s after it began is late: said once, and again when it finishes.
 */

export const FIRST_RETRY_MS = 50;
export const MAX_RETRY_MS = 5_000;
export const LATE_AFTER_MS = 5_000;

/** When a cleanup asked for at `now` may begin, the last one having begun at `lastBegan`. */
export function cleanupBeginsAt(lastBegan: number | undefined, now: number, spacingMs: number): number {
  return lastBegan === undefined ? now : Math.max(now, lastBegan + spacingMs);
}

/** How long to wait after the `attempts`-th unfinished attempt (1 or more) before the next one. */
export function retryWait(attempts: number): number {
  return Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.min(attempts - 1, 20));
}
