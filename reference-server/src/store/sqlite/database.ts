import { Committer } from './committer.js';
import { Connection } from './connection.js';
import { configure, migrate } from './migrations.js';

/**
 * The server's connections: every write goes through one committer (group commit on the
 * writer connection); reads use separate connections, which in WAL mode see only committed
 * data and never wait for the writer. Nothing read here is cached: a revoked key or a changed
 * plan is seen by the next request.
 *
 * A single statement reads on the shared `reader`. An answer built from several statements (a
 * list page: the waitlist's boost, then the rows ranked by it) reads in `snapshot`, one read
 * transaction on a connection of its own, so a write committed between two of its statements
 * cannot mix two states into one answer.
 */
export interface Database {
  writer: Committer;
  reader: Connection;
  snapshot<T>(read: (db: Connection) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** Connections for snapshots; more readers at once wait for one (each holds a pool thread while it reads). */
const SNAPSHOT_CONNECTIONS = 3;

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

  const idle: Connection[] = [];
  const waiting: ((connection: Connection) => void)[] = [];
  let opened = 0;
  async function acquire(): Promise<Connection> {
    const ready = idle.pop();
    if (ready) return ready;
    if (opened < SNAPSHOT_CONNECTIONS) {
      opened++;
      const connection = await Connection.open(path);
      await configure(connection, { writer: false });
      return connection;
    }
    return new Promise((resolve) => waiting.push(resolve));
  }
  function release(connection: Connection): void {
    const next = waiting.shift();
    if (next) next(connection);
    else idle.push(connection);
  }

  return {
    writer,
    reader,
    async snapshot(read) {
      // An in-memory database has one connection, which the writer owns.
      if (path === ':memory:') return writer.submit(read);
      const connection = await acquire();
      try {
        await connection.run('BEGIN');
        try {
          return await read(connection);
        } finally {
          // A read transaction has nothing to keep.
          await connection.run('ROLLBACK');
        }
      } finally {
        release(connection);
      }
    },
    async close() {
      await writer.close();
      for (const connection of idle.splice(0)) await connection.close();
      if (reader !== writeConnection) await reader.close();
      await writeConnection.close();
    },
  };
}
