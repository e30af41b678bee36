/**
 * Throttle state in PostgreSQL (the `Limiter` port of `store.ts`): one row per limiter and key,
 * holding the rule's state as JSON, so every `serve` process on the database counts in the same
 * state (docs/self-hosting.md#several-servers). The arithmetic is the rule's (`domain/throttle.ts`); this file only keeps
 * the states.
 *
 * A take is one transaction: the row is made to exist (a second inserter waits on the primary
 * key, then finds it), read `FOR UPDATE`, advanced by the rule, written back. So takes of one key
 * from any number of processes see each other's states, one after the other; takes of different
 * keys do not wait for each other. Each row also stores when its state goes idle, and a sweep
 * deletes the rows past it.
 *
 * Its COMMIT does not wait for the disk (`writeUnflushed`): counts need no durability (a crash
 * that forgets the last of them only makes a throttle more lenient for a moment, which the port
 * allows, as a restart does on SQLite), and PostgreSQL holds a row lock until its commit is
 * flushed, so a durable take would keep the key locked for a WAL flush, and every public sign-up
 * makes two takes (its address, and the adaptive Proof of Work's counter) beside its own write.
 */
import type { Limit, Rule, Take } from '../../domain/throttle.js';
import type { Limiter } from '../limiter.js';
import type { Connection } from './connection.js';
import type { Database } from './database.js';

/**
 * When a state taken at `now` counts nothing any more: the store's rule for a database adapter
 * (`store.ts`), falling back to the window when a rule's reset is not a finite number.
 */
function idleAt(take: Take<unknown>, now: number, limit: Limit): number {
  return Number.isFinite(take.reset) ? now + take.reset * 1000 + 1 : now + limit.windowMs + 1;
}

async function takeIn<S>(
  db: Connection,
  name: string,
  rule: Rule<S>,
  key: string,
  now: number,
  limit: Limit,
): Promise<Take<S>> {
  await db.run(
    'INSERT INTO throttles (limiter, key, state, idle_at) VALUES ($1, $2, NULL, 0) ON CONFLICT DO NOTHING',
    [name, key],
  );
  const row = await db.get<{ state: string | null }>(
    'SELECT state FROM throttles WHERE limiter = $1 AND key = $2 FOR UPDATE',
    [name, key],
  );
  const previous = row?.state == null ? undefined : (JSON.parse(row.state) as S);
  const result = rule.take(previous, now, limit);
  await db.run('UPDATE throttles SET state = $3, idle_at = $4 WHERE limiter = $1 AND key = $2', [
    name,
    key,
    JSON.stringify(result.state),
    Math.ceil(idleAt(result, now, limit)),
  ]);
  return result;
}

export function postgresLimiter<S>(db: Database, name: string, rule: Rule<S>): Limiter<S> {
  return {
    take: (key, now, limit) => db.writeUnflushed((tx) => takeIn(tx, name, rule, key, now, limit)),
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
