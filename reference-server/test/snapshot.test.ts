/**
 * A list answer reads the waitlist's boost and then the rows it ranks: two statements. A boost
 * change committed between them must not mix two states into one answer. Here the change is
 * committed exactly there, on a real SQLite file, once through the server's snapshot and once
 * (to show the check can fail) on the shared reader without one.
 */
import { tempDir } from '@waitlistkit/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listPage, statusView } from '../src/app/subscribers.js';
import { positionsBySorting, type Ranked } from '../src/domain/positions.js';
import { DEFAULT_SETTINGS } from '../src/domain/settings.js';
import type { Connection } from '../src/store/sqlite/connection.js';
import { type Database, openDatabase } from '../src/store/sqlite/database.js';
import { sqlite } from '../src/store/sqlite/dialect.js';
import { storeOver } from '../src/store/sqlite/index.js';
import { insertOrMatchSubscriber } from '../src/store/sqlite/subscribers.js';
import { tenantsOn } from '../src/store/statements/tenants.js';
import { waitlistsOn } from '../src/store/statements/waitlists.js';
import type { Store } from '../src/store/store.js';

const tmp = tempDir();
let db: Database;
afterAll(async () => {
  await db.close();
  tmp.cleanup();
});

async function waitlistWithReferrers(): Promise<{ id: string; tokens: string[] }> {
  const waitlist = await db.writer.submit(async (tx) => {
    const tenant = await tenantsOn(tx).insert('T', 'pro', 0);
    return waitlistsOn(tx, sqlite).insert(tenant.id, 'W', { ...DEFAULT_SETTINGS, referrals: true }, 0);
  });
  const tokens: string[] = [];
  const codes: string[] = [];
  for (let i = 0; i < 30; i++) {
    // Every fifth joiner was referred by the second one, so late joiners overtake with a boost.
    const referralCode = i > 0 && i % 5 === 0 ? codes[1] : undefined;
    const result = await db.writer.submit((tx) =>
      insertOrMatchSubscriber(
        tx,
        {
          waitlistId: waitlist.id,
          email: `p${i}@example.com`,
          emailNorm: `p${i}@example.com`,
          referralCode,
          confirm: false,
        },
        1_000 + i,
      ),
    );
    if (result.outcome !== 'created') throw new Error('seeding failed');
    codes.push(result.subscriber.referral_code);
    tokens.push(result.subscriber.status_token);
  }
  return { id: waitlist.id, tokens };
}

/** The ids in the order the waitlist has under `boost`, from the stored join order and referrals. */
async function orderUnder(waitlistId: string, boost: number): Promise<string[]> {
  const rows = await db.reader.all<Ranked & { id: string }>(
    'SELECT id, seq, referral_count FROM subscribers WHERE waitlist_id = ?',
    [waitlistId],
  );
  const positions = positionsBySorting(rows, boost);
  return [...rows]
    .sort((a, b) => (positions.get(a) as number) - (positions.get(b) as number))
    .map((r) => r.id);
}

/** A connection that commits `between` after the first statement it was asked to run. */
function interleaved(connection: Connection, between: () => Promise<void>): Connection {
  let calls = 0;
  const step = async () => {
    if (calls++ === 1) await between();
  };
  const after =
    <K extends 'get' | 'all' | 'run'>(method: K) =>
    async (sql: string, params?: readonly unknown[]) => {
      await step();
      return connection[method](sql, params);
    };
  return {
    get: after('get'),
    all: after('all'),
    run: after('run'),
  } as unknown as Connection;
}

function setBoost(waitlistId: string, boost: number) {
  return async () => {
    await db.writer.submit(async (tx) => {
      const before = await waitlistsOn(tx, sqlite).get(waitlistId);
      if (!before) throw new Error('no waitlist');
      await waitlistsOn(tx, sqlite).save(
        before,
        { ...before, settings: { ...before.settings, referral_boost: boost } },
        0,
      );
    });
  };
}

beforeAll(async () => {
  db = await openDatabase(tmp.db);
});

/** The server's store over `database`, whose snapshots a test may interleave with writes. */
const store = (database: Database): Store => storeOver(database, { nowMicros: () => Date.now() * 1000 });

describe('one snapshot per answer', () => {
  it('lists a page under one boost while another is committed between its statements', async () => {
    const { id } = await waitlistWithReferrers();
    const before = await orderUnder(id, 0);
    const after = await orderUnder(id, 7);
    expect(after).not.toEqual(before);

    // The server's way: every statement in one read transaction.
    const racing = store({
      ...db,
      snapshot: (read) => db.snapshot((tx) => read(interleaved(tx, setBoost(id, 7)))),
    });
    const page = await listPage(racing, id, { page: 1, limit: 50, q: '', status: 'waiting' });
    expect(page?.items.map((s) => s.id)).toEqual(before);
    expect(page?.items.map((s) => s.position)).toEqual(before.map((_, i) => i + 1));
    // The next answer sees the new boost, whole.
    const next = await listPage(store(db), id, { page: 1, limit: 50, q: '', status: 'waiting' });
    expect(next?.items.map((s) => s.id)).toEqual(after);

    // Without a snapshot the same interleaving tears the answer: the check can fail.
    await setBoost(id, 0)();
    const torn = store({ ...db, snapshot: (read) => read(interleaved(db.reader, setBoost(id, 7))) });
    const broken = await listPage(torn, id, { page: 1, limit: 50, q: '', status: 'waiting' });
    const ids = broken?.items.map((s) => s.id);
    expect(ids).not.toEqual(before);
    expect(ids).not.toEqual(after);
  });

  it('computes a status page position and total in one snapshot too', async () => {
    const { id, tokens } = await waitlistWithReferrers();
    const token = tokens[1] as string; // the referrer, second in line until a boost moves it up
    const plain = await statusView(store(db), token);
    const racing = store({
      ...db,
      snapshot: (read) => db.snapshot((tx) => read(interleaved(tx, setBoost(id, 7)))),
    });
    expect(await statusView(racing, token)).toEqual(plain);
    expect((await statusView(store(db), token))?.position).toBeLessThan(plain?.position as number);
  });
});
