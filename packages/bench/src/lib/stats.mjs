/** Small statistics and formatting helpers shared by the benchmarks. */

export function median(values) {
  return percentile(values, 50);
}

/** Linear-interpolated percentile (p in 0..100) of a list of numbers; NaN when empty. */
export function percentile(values, p) {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (p / 100) * (sorted.length - 1);
  const lo = Math.floor(rank);
  const hi = Math.ceil(rank);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (rank - lo);
}

/** Thousands separators, no decimals: 12345.6 → "12,346". */
export function fmtInt(n) {
  return Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : '–';
}

/** Milliseconds with a sensible number of decimals. */
export function fmtMs(ms) {
  if (!Number.isFinite(ms)) return '–';
  if (ms >= 100) return `${ms.toFixed(0)} ms`;
  if (ms >= 10) return `${ms.toFixed(1)} ms`;
  return `${ms.toFixed(2)} ms`;
}

/** Microseconds for per-statement timings. */
export function fmtUs(us) {
  if (!Number.isFinite(us)) return '–';
  if (us >= 10_000) return fmtMs(us / 1000);
  if (us >= 100) return `${us.toFixed(0)} µs`;
  return `${us.toFixed(1)} µs`;
}

export function fmtRatio(r) {
  return Number.isFinite(r) ? `${r >= 10 ? r.toFixed(1) : r.toFixed(2)}×` : '–';
}

export function fmtPct(fraction) {
  return Number.isFinite(fraction) ? `${(fraction * 100).toFixed(1)} %` : '–';
}

/** A met/missed cell; undefined when the row has no goal. */
export function metCell(met) {
  if (met === undefined) return '';
  return met ? 'yes' : 'NO';
}

/** Times `fn` (sync or async) `n` times; per-call durations in milliseconds. */
export async function timeCalls(n, fn) {
  const out = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await fn(i);
    out.push(performance.now() - t0);
  }
  return out;
}
