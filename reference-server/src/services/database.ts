import { Committer } from '../db/committer.js';
import { configure, migrate } from '../db/migrations.js';
import { Connection } from '../db/sqlite.js';

/**
 * The server's connections: every write goes through one committer (group commit on the
 * writer connection); reads use a separate connection, which in WAL mode sees only committed
 * data and never waits for the writer. Nothing read here is cached: a revoked key or a changed
 * plan is seen by the next request.
 */
export interface Database {
  writer: Committer;
  reader: Connection;
  close(): Promise<void>;
}

export async function openDatabase(path: string, { separateReader = true } = {}): Promise<Database> {
  const writeConnection = await Connection.open(path);
  await configure(writeConnection, { writer: true });
  await migrate(writeConnection);
  let reader = writeConnection;
  if (separateReader && path !== ':memory:') {
    reader = await Connection.open(path);
    await configure(reader, { writer: false });
  }
  const writer = new Committer(writeConnection);
  return {
    writer,
    reader,
    async close() {
      await writer.close();
      if (reader !== writeConnection) await reader.close();
      await writeConnection.close();
    },
  };
}
