/**
 * Group commit for writers that run at once (docs/self-hosting.md#sign-ups-in-groups): inputs of one
 * key (a waitlist, a throttle) that arrive while a transaction of that key is under way wait for
 * it, and the next transaction takes them all. An idle key starts at once, so a lone request waits
 * for nobody; a busy one pays one transaction, one lock and one WAL flush per group instead of per
 * input. Keys are independent: a group of one waitlist never waits for another's.
 *
 * No I/O here: `run` is the transaction, answering one outcome per input, in order, so that one
 * failed input need not fail the rest of its group.
 */

export type Settled<O> = { ok: true; value: O } | { ok: false; error: unknown };

interface Waiting<I, O> {
  input: I;
  resolve: (value: O) => void;
  reject: (error: unknown) => void;
}

/** One outcome per input, in the inputs' order. */
export type GroupRun<I, O> = (key: string, inputs: readonly I[]) => Promise<Settled<O>[]>;

export class Groups<I, O> {
  private readonly waiting = new Map<string, Waiting<I, O>[]>();
  private readonly running = new Set<string>();

  /** `most`: the largest group; more inputs wait for the next transaction. */
  constructor(
    private readonly run: GroupRun<I, O>,
    private readonly most = 256,
  ) {}

  join(key: string, input: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      const queue = this.waiting.get(key);
      if (queue) queue.push({ input, resolve, reject });
      else this.waiting.set(key, [{ input, resolve, reject }]);
      if (!this.running.has(key)) void this.drain(key);
    });
  }

  /** Runs the key's groups one after another until none waits. */
  private async drain(key: string): Promise<void> {
    this.running.add(key);
    try {
      for (let queue = this.waiting.get(key); queue; queue = this.waiting.get(key)) {
        const group = queue.splice(0, this.most);
        if (queue.length === 0) this.waiting.delete(key);
        let outcomes: Settled<O>[];
        try {
          outcomes = await this.run(
            key,
            group.map((w) => w.input),
          );
        } catch (error) {
          outcomes = group.map(() => ({ ok: false, error }));
        }
        for (const [i, w] of group.entries()) {
          const outcome = outcomes[i] ?? { ok: false, error: new Error('the group gave no answer') };
          if (outcome.ok) w.resolve(outcome.value);
          else w.reject(outcome.error);
        }
      }
    } finally {
      this.running.delete(key);
    }
  }
}
