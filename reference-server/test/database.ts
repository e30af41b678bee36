/**
 * Statements on a test's database beside its server, whichever store the harness is on: for the
 * few things no request can do (break a table under the server, age a password hash, count
 * what the outbox queued). Portable SQL only, with `?` placeholders.
 */
import pg from 'pg';
import { Connection } from '../src/store/sqlite/connection.js';

export const isPostgres = (db: string) => /^postgres(ql)?:\/\//.test(db);

export async function sql<T>(db: string, text: string, params: readonly unknown[] = []): Promise<T[]> {
  if (isPostgres(db)) {
    const client = new pg.Client({
      connectionString: db,
      // Counts come back as numbers, as from SQLite.
      types: {
        getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
          oid === pg.types.builtins.INT8
            ? Number
            : pg.types.getTypeParser(oid, format ?? 'text')) as typeof pg.types.getTypeParser,
      },
    });
    await client.connect();
    try {
      let n = 0;
      return (
        await client.query(
          text.replace(/\?/g, () => `$${++n}`),
          [...params],
        )
      ).rows as T[];
    } finally {
      await client.end();
    }
  }
  const connection = await Connection.open(db);
  try {
    // The server holds the file too: wait for its writer rather than fail.
    await connection.exec('PRAGMA busy_timeout = 10000');
    return await connection.all<T>(text, params);
  } finally {
    await connection.close();
  }
}
