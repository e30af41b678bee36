/**
 * Layout of the overview's bar chart: numbers in, coordinates out, no I/O and no markup, so the
 * scaling is tested on its own and the page only draws what it is given. Coordinates are in the
 * SVG's own units (its viewBox); the browser scales the whole drawing to the column's width.
 */

export interface ChartBox {
  width: number;
  height: number;
  /** Room left of the bars for the value labels, below them for the day labels, and right of them
   * for half of the newest day's label, which is centred under the last bar. */
  left: number;
  right: number;
  bottom: number;
  top: number;
}

export const CHART_BOX: ChartBox = { width: 600, height: 220, left: 40, right: 16, bottom: 24, top: 10 };

export interface Bar {
  x: number;
  y: number;
  width: number;
  height: number;
  /** Whether the day's label is drawn under this bar (every few days, so the labels never overlap). */
  labelled: boolean;
}

export interface Tick {
  value: number;
  y: number;
}

export interface BarChart {
  /** The value at the top of the scale: a round number at or above the largest value. */
  max: number;
  bars: Bar[];
  ticks: Tick[];
  /** The baseline's y: where every bar starts; the plot's right edge, where the grid lines end. */
  baseline: number;
  right: number;
}

/** The smallest of 1, 2, 5 × 10^k at or above `n` (and at least 1): a scale people read at a glance. */
export function niceCeiling(n: number): number {
  if (!(n > 1)) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(n));
  for (const step of [1, 2, 5, 10]) if (step * magnitude >= n) return step * magnitude;
  return 10 * magnitude;
}

const round = (n: number) => Math.round(n * 100) / 100;

/** At most this many day labels under the chart, so they stay readable on a narrow screen. */
const MAX_LABELS = 6;

export function barChart(values: readonly number[], box: ChartBox = CHART_BOX): BarChart {
  const max = niceCeiling(Math.max(0, ...values));
  const plotWidth = box.width - box.left - box.right;
  const plotHeight = box.height - box.top - box.bottom;
  const baseline = box.top + plotHeight;
  const slot = values.length > 0 ? plotWidth / values.length : plotWidth;
  const labelEvery = Math.max(1, Math.ceil(values.length / MAX_LABELS));
  const bars = values.map((value, i) => {
    // A day with any sign-up gets a visible sliver, however small next to the busiest day.
    const height = value > 0 ? Math.max(1, (value / max) * plotHeight) : 0;
    // The newest day is always labelled: it is the one people look for.
    const fromEnd = values.length - 1 - i;
    return {
      x: round(box.left + i * slot + slot * 0.15),
      y: round(baseline - height),
      width: round(slot * 0.7),
      height: round(height),
      labelled: fromEnd % labelEvery === 0,
    };
  });
  // Counts are whole numbers: a halfway tick is shown only when it is one.
  const ticks = [0, max / 2, max]
    .filter((v) => Number.isInteger(v))
    .map((value) => ({ value, y: round(baseline - (value / max) * plotHeight) }));
  return { max, bars, ticks, baseline, right: box.width - box.right };
}
