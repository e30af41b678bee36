import type { Connection } from './connection.js';

/** Server-wide values kept in the database (the token secret, the demo's ids). */
export async function getMeta(db: Connection, key: string): Promise<string | undefined> {
  return (await db.get<{ value: string }>('SELECT value FROM meta WHERE key = ?', [key]))?.value;
}

/** Stores `value` unless the key exists; resolves to the stored value either way. */
export async function putMetaOnce(db: Connection, key: string, value: string): Promise<string> {
  await db.run('INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)', [key, value]);
  return (await getMeta(db, key)) as string;
}
