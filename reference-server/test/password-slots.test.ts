/**
 * The gate in front of scrypt (adapters/passwords.ts): one derivation at a time, eight waiting,
 * the rest turned away at once, so a flood of sign-ins never holds more than one of the libuv
 * threads every database query needs. Counted with tasks the test finishes itself: no clock.
 */
import { describe, expect, it } from 'vitest';
import { HashingBusy, slots } from '../src/adapters/passwords.js';

/** A task that runs until the test finishes it, counting how many run at once. */
function tasks() {
  let running = 0;
  let most = 0;
  const finish: (() => void)[] = [];
  const started: number[] = [];
  return {
    make: (i: number) => () =>
      new Promise<number>((resolve) => {
        running++;
        most = Math.max(most, running);
        started.push(i);
        finish.push(() => {
          running--;
          resolve(i);
        });
      }),
    finishOldest: () => finish.shift()?.(),
    get most() {
      return most;
    },
    started,
  };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('the password derivation gate', () => {
  it('runs one task at a time, queues eight in order, and turns the rest away at once', async () => {
    const inSlot = slots(1, 8);
    const t = tasks();
    const outcomes = Array.from({ length: 12 }, (_, i) =>
      inSlot(t.make(i)).then(
        (value) => ({ ok: value }),
        (error: unknown) => ({ busy: error instanceof HashingBusy }),
      ),
    );
    await settle();
    // The three past the queue are answered before any task finishes.
    const early = await Promise.race([Promise.all(outcomes.slice(9)), settle().then(() => 'pending')]);
    expect(early).toEqual([{ busy: true }, { busy: true }, { busy: true }]);
    for (let done = 0; done < 9; done++) {
      expect(t.started).toHaveLength(done + 1);
      t.finishOldest();
      await settle();
    }
    expect(await Promise.all(outcomes.slice(0, 9))).toEqual(Array.from({ length: 9 }, (_, i) => ({ ok: i })));
    expect(t.started).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    expect(t.most).toBe(1);
  });

  it('frees its slot when a task fails, and takes new work once the queue has room', async () => {
    const inSlot = slots(1, 1);
    const failing = inSlot(() => Promise.reject(new Error('scrypt failed')));
    const t = tasks();
    const next = inSlot(t.make(1));
    await expect(inSlot(t.make(2))).rejects.toBeInstanceOf(HashingBusy);
    await expect(failing).rejects.toThrow('scrypt failed');
    await settle();
    t.finishOldest();
    expect(await next).toBe(1);
    const later = inSlot(t.make(3));
    await settle();
    t.finishOldest();
    expect(await later).toBe(3);
    expect(t.most).toBe(1);
  });
});
