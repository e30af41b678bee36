/**
 * Position maths, docs/subscribers.md#positions. Subscribers of a waitlist carry a dense join sequence `seq`
 * (1, 2, 3, … in commit order) and a credited `referral_count`. With a boost of N, the rank key
 * is `seq − N × referral_count`, and the order is (rank key ascending, referral count descending,
 * seq ascending); with N = 0 the order is simply `seq`, so the position is `seq`.
 *
 * The store keeps the rank key in an index so the list is read in order and a page's positions
 * are its offsets. The position of a row found out of order (a `q` search, a status page) is
 * computed from counts over referrers only, never a count over the whole waitlist.
 */

export interface Ranked {
  seq: number;
  referral_count: number;
}

export function rankKey(seq: number, referralCount: number, boost: number): number {
  return seq - boost * referralCount;
}

/** Negative when `a` is ahead of `b`. */
export function compareRank(a: Ranked, b: Ranked, boost: number): number {
  return (
    rankKey(a.seq, a.referral_count, boost) - rankKey(b.seq, b.referral_count, boost) ||
    b.referral_count - a.referral_count ||
    a.seq - b.seq
  );
}

/**
 * Counts over the waitlist's referrers (subscribers with at least one credited referral) that
 * positions are computed from. All are prefix counts on an index: cheap, and for a page of rows
 * sorted by rank they cover disjoint ranges, so a page costs at most one pass over the referrers.
 */
export interface ReferrerCounts {
  /** Referrers whose rank key is at most `t`. */
  rankAtMost(t: number): number;
  /** Referrers whose seq is at most `t`. */
  seqAtMost(t: number): number;
}

/**
 * Position of a subscriber without credited referrals (rank key = seq = X): everyone who joined
 * before, plus the referrers who joined later but rank at or before X. Since a rank key never
 * exceeds its seq, those are the referrers with rank key ≤ X minus those with seq ≤ X.
 */
export function nonReferrerPosition(seq: number, counts: ReferrerCounts): number {
  return seq + counts.rankAtMost(seq) - counts.seqAtMost(seq);
}

/**
 * Position of a referrer with rank key K: the non-referrers whose seq is below K (all joiners
 * below K minus the referrers among them), plus the referrers ranking ahead of it; `ties` counts
 * the referrers sharing K that go first (more referrals, or equal and joined earlier).
 */
export function referrerPosition(rank: number, counts: ReferrerCounts, ties: number): number {
  const below = rank - 1;
  return 1 + Math.max(0, below) - counts.seqAtMost(below) + counts.rankAtMost(below) + ties;
}

/** Reference implementation: positions by sorting everyone. Used by tests to check the above. */
export function positionsBySorting(subscribers: readonly Ranked[], boost: number): Map<Ranked, number> {
  const sorted = [...subscribers].sort((a, b) => compareRank(a, b, boost));
  return new Map(sorted.map((s, i) => [s, i + 1]));
}
