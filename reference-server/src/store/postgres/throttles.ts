/**
 * Throttle state in PostgreSQL (the `Limiter` port of `store.ts`): one row per limiter and key,
 * holding the rule's state as JSON, so every `serve` process on the database counts in the same
 * state (docs/self-hosting.md#several-servers). The arithmetic is the rule's (`domain/throttle.ts`); this file only keeps
 * the states.
 *
 * Takes are written in groups (groups.ts): those of one limiter that arrive while its last group
 * is being written share the next transaction. It makes each key's row exist and locks it (one
 * statement for all the group's keys, sent with its BEGIN), applies the rule to each request in
 * turn, and writes the states back (one statement, sent with its COMMIT). So takes of one key from
 * any number of processes see each other's states, one after the other, and a group costs two
 * round trips whatever its size: with a transaction per take, a sign-up's two takes cost more of
 * the database than the sign-up itself.
 * Each row also stores when its state goes idle, and a sweep deletes the rows past it.
 *
 * Its COMMIT does not wait for the disk (`flushed: false`): counts need no durability (a crash
 * that forgets the last of them only makes a throttle more lenient for a moment, which the port
 * allows, as a restart does on SQLite), and PostgreSQL holds a row lock until its commit is
 * flushed, so a durable take would keep the key locked for a WAL flush, and every public sign-up
 * makes two takes (its address, and the adaptive Proof of Work's counter) beside its own write.
 */
import type { Limit, Rule, Take } from '../../domain/throttle.js';
import type { Limiter } from '../limiter.js';
import type { Database } from './database.js';
import { Groups } from './groups.js';

/**
 * When a state taken at `now` counts nothing any more: the store's rule for a database adapter
 * (`store.ts`), falling back to the window when a rule's reset is not a finite number.
 */
function idleAt(take: Take<unknown>, now: number, limit: Limit): number {
  return Number.isFinite(take.reset) ? now + take.reset * 1000 + 1 : now + limit.windowMs + 1;
}

/** One request to count. */
interface Request {
  key: string;
  now: number;
  limit: Limit;
}

/**
 * Each key's row made to exist and locked, its state read, in one statement: the upsert locks a
 * row it finds as `FOR UPDATE` would (a second inserter waits on the primary key, then finds it),
 * and sees the state its holder committed. Keys in one order, so that two processes locking some
 * of the same keys cannot deadlock.
 */
const LOCK = `INSERT INTO throttles AS t (limiter, key, state, idle_at)
    SELECT $1, k, NULL, 0 FROM unnest($2::text[]) AS k ORDER BY k
  ON CONFLICT (limiter, key) DO UPDATE SET state = t.state RETURNING key, state`;

const STORE = `UPDATE throttles AS t SET state = u.state, idle_at = u.idle_at
  FROM unnest($2::text[], $3::text[], $4::bigint[]) AS u (key, state, idle_at)
 WHERE t.limiter = $1 AND t.key = u.key`;

/**
 * The takes of a group in one transaction of two round trips: every key locked and read with its
 * BEGIN; the rule applied to each request in turn (a key taken twice sees its first take's state);
 * the states written back with its COMMIT.
 */
function takeAll<S>(
  db: Database,
  name: string,
  rule: Rule<S>,
  requests: readonly Request[],
): Promise<Take<S>[]> {
  const keys = [...new Set(requests.map((r) => r.key))].sort();
  return db.writeFramed(
    [[LOCK, [name, keys]]],
    async (_, [rows = []]) => {
      const states = new Map<string, S | undefined>(
        (rows as { key: string; state: string | null }[]).map((row) => [
          row.key,
          row.state == null ? undefined : (JSON.parse(row.state) as S),
        ]),
      );
      const idle = new Map<string, number>();
      const takes = requests.map(({ key, now, limit }) => {
        const take = rule.take(states.get(key), now, limit);
        states.set(key, take.state);
        idle.set(key, Math.ceil(idleAt(take, now, limit)));
        return take;
      });
      const stored = [
        name,
        keys,
        keys.map((k) => JSON.stringify(states.get(k))),
        keys.map((k) => idle.get(k)),
      ];
      return { value: takes, closing: [[STORE, stored]] };
    },
    { flushed: false },
  );
}

export function postgresLimiter<S>(db: Database, name: string, rule: Rule<S>): Limiter<S> {
  // Takes arriving while the limiter's last group is written make the next group.
  const takes = new Groups<Request, Take<S>>(async (_, requests) =>
    (await takeAll(db, name, rule, requests)).map((value) => ({ ok: true, value })),
  );
  return {
    take: (key, now, limit) => takes.join(name, { key, now, limit }),
    async peek(key) {
      const row = await db.reader.get<{ state: string | null }>(
        'SELECT state FROM throttles WHERE limiter = $1 AND key = $2',
        [name, key],
      );
      return row?.state == null ? undefined : (JSON.parse(row.state) as S);
    },
    async sweep(now) {
      await db.reader.run('DELETE FROM throttles WHERE limiter = $1 AND idle_at <= $2', [name, now]);
    },
  };
}
