/**
 * The outbox worker (app/outbox.ts) over a store that fails under it, without a database: an
 * attempt whose facts cannot be read (the database went away while a mail waited its turn) is
 * not recorded and ends nothing but itself; the lease runs out and the delivery goes again.
 */
import { describe, expect, it } from 'vitest';
import type { Logger } from '../src/adapters/logger.js';
import type { Mailer } from '../src/adapters/mailer.js';
import { OutboxWorker } from '../src/app/outbox.js';
import { DatabaseFailure } from '../src/domain/errors.js';
import type { ClaimedDelivery, NewAttempt, Repositories, Store } from '../src/store/store.js';

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
    record: async (attempt) => {
      recorded.push(attempt);
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
