import type { Connection } from './connection.js';

/** Server-wide values kept in the database (the token secret, the demo's ids). */
export async function getMeta(db: Connection, key: string): Promise<string | undefined> {
  return (await db.get<{ value: string }>('SELECT value FROM meta WHERE key = $1', [key]))?.value;
}

/**
 * Stores `value` unless the key exists; resolves to the stored value either way. Two processes
 * storing at once: the second insert waits for the first to commit and then does nothing, and
 * its next statement reads the first one's value.
 */
export async function putMetaOnce(db: Connection, key: string, value: string): Promise<string> {
  await db.run('INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING', [key, value]);
  return (await getMeta(db, key)) as string;
}
