/**
 * The overview's pure parts, without I/O: the charts' scaling (bars for counts, a line for
 * conversion) and the ratios in words (docs/insights.md#the-cockpit).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { barChart, CHART_BOX, lineChart, niceCeiling } from '../src/dashboard/chart.js';
import {
  conversionCell,
  conversionFigure,
  kFactorFigure,
  percent,
  referredShareFigure,
} from '../src/dashboard/figures-in-words.js';

describe('bar chart scaling', () => {
  it('rounds the top of the scale up to 1, 2 or 5 times a power of ten', () => {
    expect([0, 0.5, 1, 2, 3, 5, 6, 10, 11, 99, 101, 4999, 5001].map(niceCeiling)).toEqual([
      1, 1, 1, 2, 5, 5, 10, 10, 20, 100, 200, 5000, 10000,
    ]);
  });

  it('draws bars in proportion to their values, from one baseline, inside the box', () => {
    const chart = barChart([0, 5, 10, 2]);
    const plot = CHART_BOX.height - CHART_BOX.top - CHART_BOX.bottom;
    expect(chart.max).toBe(10);
    expect(chart.baseline).toBe(CHART_BOX.top + plot);
    expect(chart.right).toBe(CHART_BOX.width - CHART_BOX.right);
    expect(chart.bars.map((b) => b.height)).toEqual([0, plot / 2, plot, plot / 5]);
    for (const bar of chart.bars) {
      expect(bar.y + bar.height).toBeCloseTo(chart.baseline, 5);
      expect(bar.x).toBeGreaterThanOrEqual(CHART_BOX.left);
      expect(bar.x + bar.width).toBeLessThanOrEqual(chart.right);
      expect(bar.y).toBeGreaterThanOrEqual(CHART_BOX.top);
    }
    // Left to right in order, without overlapping.
    for (let i = 1; i < chart.bars.length; i++) {
      const [a, b] = [chart.bars[i - 1], chart.bars[i]] as [(typeof chart.bars)[0], (typeof chart.bars)[0]];
      expect(b.x).toBeGreaterThanOrEqual(a.x + a.width);
    }
  });

  it('keeps a day with one sign-up visible next to a very busy one', () => {
    const [small] = barChart([1, 100_000]).bars;
    expect(small?.height).toBeGreaterThanOrEqual(1);
  });

  it('shows an empty month as flat bars on a scale of 0 to 1', () => {
    const chart = barChart(Array(30).fill(0));
    expect(chart.max).toBe(1);
    expect(chart.bars.every((b) => b.height === 0)).toBe(true);
    expect(chart.ticks.map((t) => t.value)).toEqual([0, 1]);
  });

  it('labels whole-number ticks only, the top one at the top of the plot', () => {
    const chart = barChart([7]);
    expect(chart.ticks).toEqual([
      { value: 0, y: chart.baseline },
      { value: 5, y: (chart.baseline + CHART_BOX.top) / 2 },
      { value: 10, y: CHART_BOX.top },
    ]);
  });

  it('labels at most six days, always the newest', () => {
    const chart = barChart(Array(30).fill(1));
    const labelled = chart.bars.flatMap((b, i) => (b.labelled ? [i] : []));
    expect(labelled.length).toBeLessThanOrEqual(6);
    expect(labelled.at(-1)).toBe(29);
    expect(barChart([1, 2, 3]).bars.every((b) => b.labelled)).toBe(true);
  });
});

describe('bars on a shared scale', () => {
  it('draws views and sign-ups against one top, the narrower bar centred in the wider', () => {
    const max = niceCeiling(Math.max(40, 7));
    const views = barChart([40, 0], CHART_BOX, { max, share: 0.8 });
    const signups = barChart([7, 0], CHART_BOX, { max, share: 0.4 });
    expect(views.max).toBe(50);
    expect(signups.max).toBe(50);
    const [v, s] = [views.bars[0], signups.bars[0]] as [(typeof views.bars)[0], (typeof views.bars)[0]];
    expect(s.height / v.height).toBeCloseTo(7 / 40, 2);
    expect(s.x + s.width / 2).toBeCloseTo(v.x + v.width / 2, 5);
    expect(s.width).toBeCloseTo(v.width / 2, 5);
  });
});

describe('conversion line', () => {
  it('puts each day with views at its ratio in percent on a round scale, and leaves days without views out', () => {
    const chart = lineChart([0.02, null, 0.034, 0.01]);
    expect(chart.maxPercent).toBe(5);
    expect(chart.ticks.map((t) => t.value)).toEqual([0, 2.5, 5]);
    expect(chart.points[1]).toBeNull();
    const plot = CHART_BOX.height - CHART_BOX.top - CHART_BOX.bottom;
    expect(chart.points[0]?.y).toBeCloseTo(chart.baseline - (2 / 5) * plot, 1);
    // The day without views breaks the line: a new move after it, one segment joining the last two.
    expect(chart.path.match(/M/g)).toHaveLength(2);
    expect(chart.path.match(/L/g)).toHaveLength(1);
  });

  it('draws no line when nothing was viewed, on a scale of 0 to 1 %', () => {
    const chart = lineChart([null, null]);
    expect(chart.path).toBe('');
    expect(chart.maxPercent).toBe(1);
  });

  it('keeps every point inside the plot, whatever the ratios (above 100 % too: sign-ups without views)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.option(fc.double({ min: 0, max: 50, noNaN: true })), { minLength: 1, maxLength: 366 }),
        (ratios) => {
          const chart = lineChart(ratios);
          for (const p of chart.points) {
            if (!p) continue;
            expect(p.y).toBeGreaterThanOrEqual(CHART_BOX.top - 0.01);
            expect(p.y).toBeLessThanOrEqual(chart.baseline + 0.01);
            expect(p.x).toBeGreaterThanOrEqual(CHART_BOX.left);
            expect(p.x).toBeLessThanOrEqual(chart.right);
          }
          expect(chart.labelled.at(-1)).toBe(true);
        },
      ),
    );
  });
});

describe('ratios in words', () => {
  it('writes a percent with one decimal under 10 and whole above', () => {
    expect([0, 0.034, 0.1, 0.125, 0.5, 1.5].map(percent)).toEqual([
      '0%',
      '3.4%',
      '10%',
      '13%',
      '50%',
      '150%',
    ]);
    expect(conversionCell(null)).toBe('—');
  });

  it('says what each total means for this list, and why there is none when a divisor is 0', () => {
    expect(conversionFigure(0.05)).toEqual({
      value: '5%',
      sentence: '5 of every 100 views of the form became a sign-up.',
    });
    expect(referredShareFigure(0.25).sentence).toBe("25 of every 100 sign-ups came through a friend's link.");
    expect(kFactorFigure(0.5).sentence).toBe(
      'Each person who joined brought 0.5 more: below 1, the list grows only as people find the page.',
    );
    expect(kFactorFigure(1.25)).toMatchObject({ value: '1.25' });
    expect(kFactorFigure(1.25).sentence).toContain('above 1, the list grows by itself');
    for (const none of [conversionFigure(null), referredShareFigure(null), kFactorFigure(null)]) {
      expect(none.value).toBe('—');
      expect(none.sentence).toMatch(/^No views|^Nobody signed up/);
    }
  });
});
