/** The outbox's shares of its slots (domain/fair-share.ts): arithmetic only, no I/O. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Candidate, ceilingOf, shareSlots } from '../src/domain/fair-share.js';

/** `n` due deliveries of `group`, named `group1`, `group2`, ... */
const due = (group: string, n: number, from = 1): Candidate[] =>
  Array.from({ length: n }, (_, i) => ({ id: `${group}${from + i}`, group }));

const held = (entries: Record<string, number> = {}) => new Map(Object.entries(entries));

/** Due deliveries taken in turn from each list, as a queue ordered by due time interleaves them. */
function interleave(...lists: Candidate[][]): Candidate[] {
  const out: Candidate[] = [];
  for (let i = 0; lists.some((l) => i < l.length); i++)
    for (const l of lists) {
      const c = l[i];
      if (c) out.push(c);
    }
  return out;
}

const groupOf = (id: string) => id.replace(/\d+$/, '');
const counts = (ids: string[]) =>
  ids.reduce<Record<string, number>>((c, id) => {
    c[groupOf(id)] = (c[groupOf(id)] ?? 0) + 1;
    return c;
  }, {});

describe('the ceiling', () => {
  it('leaves room for one more group: half for one, a third each for two, at least one', () => {
    expect(ceilingOf(32, 1)).toBe(16);
    expect(ceilingOf(32, 2)).toBe(10);
    expect(ceilingOf(32, 3)).toBe(8);
    expect(ceilingOf(32, 40)).toBe(1);
    expect(ceilingOf(1, 1)).toBe(1);
  });
});

describe('sharing the slots', () => {
  it('gives a lone tenant with eight busy endpoints half the slots, oldest first', () => {
    // 8 endpoints x 4 due (what each endpoint may take), all of tenant a.
    const chosen = shareSlots(due('a', 32), held(), 32);
    expect(chosen).toEqual(due('a', 16).map((c) => c.id));
  });

  it('gives the mail a slot at once while that tenant holds its half', () => {
    const queue = [...due('a', 16, 17), ...due('mail', 1)];
    expect(shareSlots(queue, held({ a: 16 }), 32)).toEqual(['mail1']);
  });

  it('takes turns between tenants with work, the one waiting longest first, up to the ceiling', () => {
    // b's first delivery is older than a's; 32 / 3 = 10 each.
    const queue = interleave(due('b', 12), due('a', 12));
    const chosen = shareSlots(queue, held(), 32);
    expect(chosen.slice(0, 4)).toEqual(['b1', 'a1', 'b2', 'a2']);
    expect(counts(chosen)).toEqual({ a: 10, b: 10 });
  });

  it('gives a freed slot to the group holding the fewest, not to the oldest delivery', () => {
    // a and c fill the slots; one of a's ends; a's backlog is older than the mail.
    const queue = [...due('a', 4, 20), ...due('c', 4, 20), ...due('mail', 1)];
    expect(shareSlots(queue, held({ a: 15, c: 16 }), 32)).toEqual(['mail1']);
  });

  it('holds a group above the ceiling to what it has: it takes nothing more until it falls below', () => {
    const queue = [...due('a', 4, 20), ...due('b', 4)];
    // Two groups: ceiling 10; a holds 16 from when it was alone.
    expect(counts(shareSlots(queue, held({ a: 16 }), 32))).toEqual({ b: 4 });
  });

  it('starts nothing when every slot is taken, and never more than are free', () => {
    expect(shareSlots(due('b', 4), held({ a: 16, c: 16 }), 32)).toEqual([]);
    expect(shareSlots(interleave(due('a', 9), due('b', 9)), held({ c: 6 }), 8)).toEqual(['a1', 'b1']);
  });

  it('counts only groups with work: an empty holding is no group', () => {
    expect(shareSlots(due('a', 20), held({ b: 0 }), 32)).toHaveLength(16);
  });
});

describe('sharing the slots, for any queue', () => {
  const groups = fc.constantFrom('a', 'b', 'c', 'd', 'mail');
  const scenario = fc.record({
    queue: fc.array(groups, { maxLength: 80 }),
    held: fc.dictionary(groups, fc.nat({ max: 12 })),
    total: fc.integer({ min: 1, max: 40 }),
  });

  it('starts each due delivery at most once, within the free slots, oldest first within a group, and fairly', () => {
    fc.assert(
      fc.property(scenario, ({ queue, held: before, total }) => {
        const seen = new Map<string, number>();
        const candidates = queue.map((group) => {
          const n = (seen.get(group) ?? 0) + 1;
          seen.set(group, n);
          return { id: `${group}${n}`, group };
        });
        const holding = held(before);
        const chosen = shareSlots(candidates, holding, total);
        const heldNow = Object.values(before).reduce((s, n) => s + n, 0);

        expect(new Set(chosen).size).toBe(chosen.length);
        expect(chosen.every((id) => candidates.some((c) => c.id === id))).toBe(true);
        expect(chosen.length).toBeLessThanOrEqual(Math.max(0, total - heldNow));

        const active = new Set([
          ...Object.keys(before).filter((g) => (before[g] ?? 0) > 0),
          ...candidates.map((c) => c.group),
        ]).size;
        const ceiling = ceilingOf(total, active);
        const got = counts(chosen);
        const after = (g: string) => (before[g] ?? 0) + (got[g] ?? 0);
        for (const [group, n] of Object.entries(got)) {
          // Oldest first: a group's chosen are the first of its queue.
          const mine = chosen
            .filter((id) => groupOf(id) === group)
            .map((id) => Number(id.slice(group.length)));
          expect(mine.sort((x, y) => x - y)).toEqual(Array.from({ length: n }, (_, i) => i + 1));
          // Within the ceiling.
          expect(after(group)).toBeLessThanOrEqual(ceiling);
        }
        // Slots left unused only when nobody who still has due work is under the ceiling.
        const wanting = [...seen.keys()].filter(
          (g) => (got[g] ?? 0) < (seen.get(g) ?? 0) && after(g) < ceiling,
        );
        if (wanting.length > 0) expect(chosen.length).toBe(Math.max(0, total - heldNow));
        // Water-filling: a group given a slot ends at most one above any group still wanting one.
        for (const g of Object.keys(got))
          for (const w of wanting) expect(after(g)).toBeLessThanOrEqual(after(w) + 1);
      }),
      { numRuns: 500 },
    );
  });
});
