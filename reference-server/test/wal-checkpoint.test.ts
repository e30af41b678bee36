/**
 * How often the writer checkpoints the WAL (store/sqlite/migrations.ts `configure`): not at
 * SQLite's default of 1,000 pages, which cost sign-ups a copy of their hot pages every few hundred
 * commits (BENCHMARKS.md item 4), but past 10,000. On a real file, through a configured writer.
 */
import { tempDir } from '@waitlistkit/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Connection } from '../src/store/sqlite/connection.js';
import { configure } from '../src/store/sqlite/migrations.js';

const tmp = tempDir();
let db: Connection;

beforeAll(async () => {
  db = await Connection.open(`${tmp.dir}/wal.db`);
  await configure(db, { writer: true });
  await db.exec('CREATE TABLE pages (n INTEGER PRIMARY KEY, filler BLOB)');
});

afterAll(async () => {
  await db.close();
  tmp.cleanup();
});

/** Commits `count` rows of a page each, in transactions of 100. */
async function writePages(from: number, count: number): Promise<void> {
  for (let at = from; at < from + count; at += 100) {
    await db.exec('BEGIN');
    await db.run(
      `WITH RECURSIVE n(i) AS (SELECT ?1 UNION ALL SELECT i + 1 FROM n WHERE i < ?1 + 99)
       INSERT INTO pages SELECT i, randomblob(4000) FROM n`,
      [at],
    );
    await db.exec('COMMIT');
  }
}

/** Frames in the WAL now (the checkpoint that says it then lets the next commit start it over). */
async function walFrames(): Promise<number> {
  return (await db.get<{ log: number }>('PRAGMA wal_checkpoint(PASSIVE)'))?.log ?? 0;
}

describe('WAL checkpoints', () => {
  it('keeps writing to the WAL past the 1,000 pages at which SQLite would checkpoint', async () => {
    await writePages(0, 3000);
    // Each commit appended its pages; none was followed by a checkpoint that let the WAL restart.
    expect(await walFrames()).toBeGreaterThan(3000);
  });

  it('checkpoints once the WAL passes 10,000 pages, so it does not grow without end', async () => {
    // The WAL starts over with the first commit after the checkpoint above.
    await writePages(3000, 12_000);
    expect(await walFrames()).toBeLessThan(10_000);
  });
});
