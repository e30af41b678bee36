import { describe, expect, it } from 'vitest';
import { countsAtMost, countsAtMostEach, type Range } from '../src/store/range-counts.js';

/** Rows of two kinds by their column's value, counted the way a store's statement would. */
const ROWS = { a: [1, 2, 2, 5, 9, 12], b: [3, 5, 5, 5, 11] };
const inRange = (values: number[], { after, upTo }: Range) =>
  values.filter((v) => v > after && v <= upTo).length;

describe('prefix counts from ranges', () => {
  it('asks once for the ranges between the sorted, distinct thresholds', async () => {
    const asked: (readonly Range[])[] = [];
    await countsAtMostEach([9, 2, 5, 2], ['a', 'b'], async (ranges) => {
      asked.push(ranges);
      return ranges.map(() => ({ a: 0, b: 0 }));
    });
    expect(asked).toEqual([
      [
        { after: Number.MIN_SAFE_INTEGER, upTo: 2 },
        { after: 2, upTo: 5 },
        { after: 5, upTo: 9 },
      ],
    ]);
  });

  it('adds up the ranges of each kind to its count at or below every threshold', async () => {
    const { a, b } = await countsAtMostEach([9, 2, 5], ['a', 'b'], async (ranges) =>
      ranges.map((range) => ({ a: inRange(ROWS.a, range), b: inRange(ROWS.b, range) })),
    );
    expect([2, 5, 9].map(a)).toEqual([3, 4, 5]);
    expect([2, 5, 9].map(b)).toEqual([0, 4, 4]);
  });

  it('counts one kind as the several-kind form does', async () => {
    const atMost = await countsAtMost([12, 1], async (ranges) =>
      ranges.map((range) => inRange(ROWS.a, range)),
    );
    expect([1, 12].map(atMost)).toEqual([1, 6]);
  });
});
