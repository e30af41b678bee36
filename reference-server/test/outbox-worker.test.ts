/**
 * The outbox worker (app/outbox.ts) over stores of its own, without a database. An attempt whose
 * facts cannot be read (the database went away while a mail waited its turn) is not recorded and
 * ends nothing but itself; the lease runs out and the delivery goes again. And the claim ahead: an
 * endpoint's next claimed delivery starts when an attempt ends, not when the write that records it
 * returns; at shutdown the claims not started are given back.
 */
import { describe, expect, it } from 'vitest';
import type { Logger } from '../src/adapters/logger.js';
import type { Mailer } from '../src/adapters/mailer.js';
import type { SendResult } from '../src/adapters/webhook-sender.js';
import { OutboxWorker } from '../src/app/outbox.js';
import { DatabaseFailure } from '../src/domain/errors.js';
import type { ClaimedDelivery, DueDelivery, FinishedAttempt, NewAttempt } from '../src/store/outbox.js';
import type { Repositories, Store } from '../src/store/store.js';

const mail: ClaimedDelivery = {
  id: 'dlv_mail',
  channel: 'mail',
  tenant_id: 'ten_a',
  endpoint_id: null,
  url: null,
  secret: null,
  message_id: 'msg_mail',
  body: JSON.stringify({ subscriber_id: 'sub_a' }),
  attempts: 0,
};

/** A store whose only due delivery is `mail`, and whose reads of a mail's facts fail. */
function failingStore(failure: Error) {
  const recorded: NewAttempt[] = [];
  let claims = 0;
  const outbox: Partial<Repositories['outbox']> = {
    pendingEvents: async () => [],
    due: async () => (claims === 0 ? [mail] : []),
    claim: async () => (claims++ === 0 ? [mail] : []),
    record: async (finished) => {
      recorded.push(...finished.map((f) => f.attempt));
    },
  };
  const tx = { outbox } as unknown as Repositories;
  const store = {
    read: (fn: (tx: Repositories) => Promise<unknown>) => fn(tx),
    write: (fn: (tx: Repositories) => Promise<unknown>) => fn(tx),
    reads: {
      outbox,
      confirmations: {
        mail: async () => {
          throw failure;
        },
      },
    },
  } as unknown as Store;
  return { store, recorded, claimed: () => claims };
}

function logger() {
  const lines: { level: string; message: string }[] = [];
  const log: Logger = {
    request: () => undefined,
    info: (message) => lines.push({ level: 'info', message }),
    error: (message) => lines.push({ level: 'error', message }),
  };
  return { log, lines };
}

const mailer: Mailer = {
  send: async () => {
    throw new Error('not reached: the facts are read first');
  },
  close: () => undefined,
};

const channels = {
  webhook: { send: async () => ({ status: 200 }) },
  mail: { mailer, from: 'w@x.example', appUrl: 'https://x.example' },
};
const clock = { now: () => 1_000, nowMicros: () => 1_000_000 };

describe('an attempt the store fails under', () => {
  it('records nothing, ends nothing but itself, and tells the health of an outage', async () => {
    const { store, recorded, claimed } = failingStore(
      new DatabaseFailure('database_unavailable', 'The database could not be reached', 'ECONNREFUSED'),
    );
    const { log, lines } = logger();
    const observed: unknown[] = [];
    const health = {
      down: false,
      observe: (error: unknown): error is DatabaseFailure => {
        observed.push(error);
        return error instanceof DatabaseFailure;
      },
    };
    const worker = new OutboxWorker({ store, clock, log, health }, channels, { schedule: [5_000] });
    await worker.tick();
    expect(claimed()).toBe(1);
    await worker.stop();
    expect(recorded).toEqual([]);
    expect(observed).toHaveLength(1);
    expect(lines).toEqual([]);
  });

  it('logs a failure that is no outage, and still records nothing', async () => {
    const { store, recorded } = failingStore(new Error('a row that does not parse'));
    const { log, lines } = logger();
    const worker = new OutboxWorker({ store, clock, log }, channels, { schedule: [5_000] });
    await worker.tick();
    await worker.stop();
    expect(recorded).toEqual([]);
    expect(lines).toEqual([{ level: 'error', message: 'delivery attempt failed' }]);
  });
});

/** A webhook delivery of endpoint `wh_a`. */
const hook = (i: number): ClaimedDelivery => ({
  id: `dlv_${i}`,
  channel: 'webhook',
  tenant_id: 'ten_a',
  endpoint_id: 'wh_a',
  url: 'https://a.example/hook',
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  message_id: `msg_${i}`,
  body: '{}',
  attempts: 0,
});

/**
 * A store of `n` due deliveries of one endpoint, whose writes after the first wait for `open()`,
 * and a sender whose attempts wait for `answer(i)`.
 */
function heldWrites(n: number) {
  const due = Array.from({ length: n }, (_, i) => hook(i));
  const claimed = new Set<string>();
  const recorded: FinishedAttempt[][] = [];
  const released: string[][] = [];
  let writes = 0;
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  const outbox: Partial<Repositories['outbox']> = {
    pendingEvents: async () => [],
    due: async (_now, underWay, most) =>
      due
        .filter((d) => !claimed.has(d.id))
        .slice(0, most - (underWay.wh_a ?? 0))
        .map((d): DueDelivery => ({ id: d.id, channel: d.channel, tenant_id: d.tenant_id })),
    claim: async (ids) => {
      for (const id of ids) claimed.add(id);
      return due.filter((d) => ids.includes(d.id));
    },
    record: async (finished) => {
      if (finished.length > 0) recorded.push([...finished]);
    },
    release: async (ids) => {
      released.push([...ids]);
    },
  };
  const tx = { outbox } as unknown as Repositories;
  const store = {
    read: (fn: (tx: Repositories) => Promise<unknown>) => fn(tx),
    write: async (fn: (tx: Repositories) => Promise<unknown>) => {
      if (writes++ > 0) await opened;
      return fn(tx);
    },
    reads: { outbox },
  } as unknown as Store;
  const sent: string[] = [];
  const answers: ((result: SendResult) => void)[] = [];
  const webhook = {
    send: (_url: string, headers: Record<string, string>) =>
      new Promise<SendResult>((resolve) => {
        sent.push(headers['webhook-id'] as string);
        answers.push(resolve);
      }),
  };
  return {
    store,
    webhook,
    sent,
    answer: (i: number) => answers[i]?.({ status: 204 }),
    open: () => open(),
    writes: () => writes,
    recorded,
    released,
  };
}

/** Lets every settled promise's callbacks run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('claiming ahead', () => {
  it("starts an endpoint's next claimed delivery when an attempt ends, before the write that records it", async () => {
    const s = heldWrites(10);
    const { log } = logger();
    const worker = new OutboxWorker(
      { store: s.store, clock, log },
      { webhook: s.webhook, mail: undefined },
      {
        schedule: [5_000],
      },
    );
    await worker.tick();
    // Four attempts at once to one endpoint; the other six claimed too, waiting (up to three claims a
    // slot: 60 s of lease ÷ 15 s of attempt, less one).
    expect(s.sent).toEqual(['msg_0', 'msg_1', 'msg_2', 'msg_3']);
    s.answer(0);
    await settle();
    // The write recording msg_0 has been asked for and is waiting; msg_4 went meanwhile.
    expect(s.writes()).toBe(2);
    expect(s.recorded).toEqual([]);
    expect(s.sent).toEqual(['msg_0', 'msg_1', 'msg_2', 'msg_3', 'msg_4']);
    s.open();
    await settle();
    expect(s.recorded.flat().map((f) => [f.attempt.deliveryId, f.next.state])).toEqual([
      ['dlv_0', 'delivered'],
    ]);

    // Shutdown: the attempts under way end and are recorded; the claims not started are given back.
    const stopped = worker.stop();
    for (let i = 1; i <= 4; i++) s.answer(i);
    await stopped;
    expect(s.sent).toEqual(['msg_0', 'msg_1', 'msg_2', 'msg_3', 'msg_4']);
    expect(s.recorded.flat().map((f) => f.attempt.deliveryId)).toEqual([
      'dlv_0',
      'dlv_1',
      'dlv_2',
      'dlv_3',
      'dlv_4',
    ]);
    expect(s.released.flat().sort()).toEqual(['dlv_5', 'dlv_6', 'dlv_7', 'dlv_8', 'dlv_9']);
  });
});
