/** Server-wide values kept in the database (the token secret, the demo's ids). */
import type { Db } from '../db.js';
import type { Meta } from '../store.js';

export function metaOn(db: Db): Meta {
  const get = async (key: string) =>
    (await db.get<{ value: string }>('SELECT value FROM meta WHERE key = ?', [key]))?.value;
  return {
    get,
    // Two processes storing at once: the second insert waits for the first to commit and then
    // does nothing, and its next statement reads the first one's value.
    async putOnce(key, value) {
      await db.run('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING', [key, value]);
      return (await get(key)) as string;
    },
  };
}
