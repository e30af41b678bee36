/**
 * PostgreSQL's group commit without a database: the queue that forms groups (store/postgres/groups.ts)
 * and what a group of sign-ups does (store/postgres/group-plan.ts), which must equal the same
 * sign-ups applied one after another. Over HTTP, with two processes on one database: signup-groups.test.ts.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAIL_AGAIN_AFTER_US } from '../src/domain/confirmation.js';
import {
  type FoundRow,
  type GroupInput,
  type LockedLine,
  planGroup,
  type Step,
} from '../src/store/postgres/group-plan.js';
import { Groups, type Settled } from '../src/store/postgres/groups.js';

/** A promise and its resolver, to hold a run open. */
function gate<T>() {
  let open!: (value: T) => void;
  const promise = new Promise<T>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

describe('groups', () => {
  it('start an idle key at once, and give the inputs that arrive meanwhile to the next run, all together', async () => {
    const runs: string[][] = [];
    const first = gate<void>();
    const groups = new Groups<string, string>(async (key, inputs) => {
      runs.push([key, ...inputs]);
      if (runs.length === 1) await first.promise;
      return inputs.map((i) => ({ ok: true, value: i.toUpperCase() }));
    });
    const a = groups.join('w', 'a');
    expect(runs).toEqual([['w', 'a']]);
    const rest = ['b', 'c', 'd'].map((i) => groups.join('w', i));
    first.open();
    expect(await Promise.all([a, ...rest])).toEqual(['A', 'B', 'C', 'D']);
    expect(runs).toEqual([
      ['w', 'a'],
      ['w', 'b', 'c', 'd'],
    ]);
  });

  it('run keys independently: a busy key holds back none of another', async () => {
    const held = gate<void>();
    const groups = new Groups<string, string>(async (key, inputs) => {
      if (key === 'busy') await held.promise;
      return inputs.map((value) => ({ ok: true, value }));
    });
    const busy = groups.join('busy', 'x');
    expect(await groups.join('idle', 'y')).toBe('y');
    held.open();
    expect(await busy).toBe('x');
  });

  it('fail only the inputs whose outcome is a failure, and all of a run that throws', async () => {
    const groups = new Groups<number, number>(async (_, inputs) => {
      if (inputs.includes(0)) throw new Error('the database is away');
      return inputs.map(
        (n): Settled<number> =>
          n < 0 ? { ok: false, error: new Error(`bad ${n}`) } : { ok: true, value: n },
      );
    });
    expect(
      await Promise.allSettled([groups.join('k', 1), groups.join('k', -2), groups.join('k', 3)]),
    ).toMatchObject([
      { status: 'fulfilled', value: 1 },
      { status: 'rejected', reason: { message: 'bad -2' } },
      { status: 'fulfilled', value: 3 },
    ]);
    const thrown = await Promise.allSettled([groups.join('k', 0)]);
    expect(thrown).toMatchObject([{ status: 'rejected', reason: { message: 'the database is away' } }]);
    // A run that answers for fewer inputs than it was given fails the rest rather than leave them waiting.
    const short = new Groups<number, number>(async () => []);
    await expect(short.join('k', 1)).rejects.toThrow(/no answer/);
  });

  it('cap a group at its largest size and run the rest next', async () => {
    const sizes: number[] = [];
    const first = gate<void>();
    const groups = new Groups<number, number>(async (_, inputs) => {
      sizes.push(inputs.length);
      if (sizes.length === 1) await first.promise;
      return inputs.map((value) => ({ ok: true, value }));
    }, 3);
    const all = Array.from({ length: 8 }, (_, i) => groups.join('k', i));
    first.open();
    expect(await Promise.all(all)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(sizes).toEqual([1, 3, 3, 1]);
  });
});

const LINE: LockedLine = { archived: false, version: 3, lastSeq: 10, lastJoinedUs: 5_000, byProvider: true };
const NOW = 4_000;

/** The same sign-ups one after another, each under the lock as subscribers.ts does it. */
function oneByOne(
  line: LockedLine,
  found: readonly FoundRow[],
  inputs: readonly GroupInput[],
  nowUs: number,
) {
  const rows: {
    norm: string;
    vk: string | null;
    holder: Step;
    mailedUs: number | null;
    unconfirmed: boolean;
  }[] = found.map((f, row) => ({
    norm: f.email_norm,
    vk: f.variant_key,
    holder: { kind: 'found', row, mailAgain: false },
    mailedUs: f.confirm_mailed_us,
    unconfirmed: f.unconfirmed,
  }));
  let { lastSeq, lastJoinedUs } = line;
  return inputs.map((input, i): Step => {
    if (line.archived || (input.waitlistVersion !== undefined && input.waitlistVersion !== line.version))
      return { kind: 'gone' };
    const vk = line.byProvider ? input.variantKey : null;
    const row = rows.find((r) => r.norm === input.emailNorm) ?? rows.find((r) => vk !== null && r.vk === vk);
    if (row) {
      if (row.holder.kind !== 'found') return row.holder;
      const mailAgain =
        input.confirm &&
        row.unconfirmed &&
        (row.mailedUs === null || nowUs - row.mailedUs >= MAIL_AGAIN_AFTER_US);
      if (mailAgain) row.mailedUs = nowUs;
      return { ...row.holder, mailAgain };
    }
    lastSeq += 1;
    lastJoinedUs = Math.max(nowUs, lastJoinedUs + 1);
    rows.push({
      norm: input.emailNorm,
      vk,
      holder: { kind: 'created', input: i },
      mailedUs: null,
      unconfirmed: false,
    });
    return { kind: 'create', seq: lastSeq, joinedUs: lastJoinedUs, variantKey: vk };
  });
}

describe('a group of sign-ups', () => {
  it('numbers its new rows densely after the last, with join times strictly after the last', () => {
    const inputs = ['a', 'b', 'c'].map((e) => ({
      emailNorm: `${e}@x.example`,
      variantKey: null,
      confirm: false,
    }));
    const plan = planGroup(LINE, [], inputs, NOW);
    expect(plan.steps).toEqual([
      { kind: 'create', seq: 11, joinedUs: 5_001, variantKey: null },
      { kind: 'create', seq: 12, joinedUs: 5_002, variantKey: null },
      { kind: 'create', seq: 13, joinedUs: 5_003, variantKey: null },
    ]);
    expect([plan.lastSeq, plan.lastJoinedUs]).toEqual([13, 5_003]);
    // A clock ahead of the last join time gives its own time to the first row.
    expect(planGroup(LINE, [], inputs, 9_000).steps.map((s) => s.kind === 'create' && s.joinedUs)).toEqual([
      9_000, 9_001, 9_002,
    ]);
  });

  it('gives an address twice in the group one row: the second sign-up answers the first one’s', () => {
    const same = { emailNorm: 'same@x.example', variantKey: null, confirm: false };
    expect(planGroup(LINE, [], [same, same], NOW).steps).toEqual([
      { kind: 'create', seq: 11, joinedUs: 5_001, variantKey: null },
      { kind: 'created', input: 0 },
    ]);
  });

  it('answers a waitlist gone for all when archived or missing, and per sign-up for a version it was not decided on', () => {
    const input = { emailNorm: 'a@x.example', variantKey: null, confirm: false };
    expect(planGroup(undefined, [], [input], NOW).steps).toEqual([{ kind: 'gone' }]);
    expect(planGroup({ ...LINE, archived: true }, [], [input], NOW).steps).toEqual([{ kind: 'gone' }]);
    const plan = planGroup(
      LINE,
      [],
      [
        { ...input, waitlistVersion: 2 },
        { ...input, waitlistVersion: 3 },
      ],
      NOW,
    );
    expect(plan.steps).toEqual([
      { kind: 'gone' },
      { kind: 'create', seq: 11, joinedUs: 5_001, variantKey: null },
    ]);
  });

  it('queues a confirmation mail again once for an unconfirmed address signed up twice in the group', () => {
    const found: FoundRow = {
      email_norm: 'u@x.example',
      variant_key: null,
      unconfirmed: true,
      confirm_mailed_us: 0,
    };
    const input = { emailNorm: 'u@x.example', variantKey: null, confirm: true };
    const now = MAIL_AGAIN_AFTER_US + 1;
    expect(planGroup(LINE, [found], [input, input], now).steps).toEqual([
      { kind: 'found', row: 0, mailAgain: true },
      { kind: 'found', row: 0, mailAgain: false },
    ]);
  });

  it('equals the same sign-ups one after another, whatever the addresses, variant keys, versions and rows found', () => {
    const norm = fc.constantFrom('a@x', 'b@x', 'c@x', 'd@x');
    const vk = fc.option(fc.constantFrom('k1', 'k2', 'k3'), { nil: null });
    const input = fc.record(
      { emailNorm: norm, variantKey: vk, confirm: fc.boolean(), waitlistVersion: fc.constantFrom(2, 3) },
      { requiredKeys: ['emailNorm', 'variantKey', 'confirm'] },
    );
    const foundRow = fc.record({
      email_norm: norm,
      variant_key: vk,
      unconfirmed: fc.boolean(),
      confirm_mailed_us: fc.option(fc.constantFrom(0, NOW - 1), { nil: null }),
    });
    const line = fc.record({
      archived: fc.boolean(),
      version: fc.constant(3),
      lastSeq: fc.nat(100),
      lastJoinedUs: fc.constantFrom(0, NOW, NOW * 2),
      byProvider: fc.boolean(),
    });
    // Rows on the waitlist never share an address or a variant key (its unique indexes).
    const distinct = fc.uniqueArray(foundRow, { selector: (r) => r.email_norm, maxLength: 3 }).map((rows) => {
      const keys = new Set<string>();
      return rows.map((r) => {
        if (r.variant_key === null || keys.has(r.variant_key)) return { ...r, variant_key: null };
        keys.add(r.variant_key);
        return r;
      });
    });
    fc.assert(
      fc.property(
        line,
        distinct,
        fc.array(input, { maxLength: 8 }),
        fc.constantFrom(NOW, NOW + MAIL_AGAIN_AFTER_US),
        (l, found, inputs, now) => {
          expect(planGroup(l, found, inputs, now).steps).toEqual(oneByOne(l, found, inputs, now));
        },
      ),
    );
  });
});
