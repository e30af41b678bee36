/** The group committer on a real SQLite file: jobs, savepoints, and groups of inputs. */
import { tempDir } from '@waitlistkit/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Committer, type GroupJob } from '../src/store/sqlite/committer.js';
import { Connection } from '../src/store/sqlite/connection.js';
import { configure } from '../src/store/sqlite/migrations.js';

const tmp = tempDir();
let db: Connection;
let committer: Committer;

beforeAll(async () => {
  db = await Connection.open(`${tmp.dir}/committer.db`);
  await configure(db, { writer: true });
  await db.exec('CREATE TABLE t (v TEXT PRIMARY KEY)');
  committer = new Committer(db);
});

afterAll(async () => {
  await committer.close();
  await db.close();
  tmp.cleanup();
});

async function values(): Promise<string[]> {
  return (await db.all<{ v: string }>('SELECT v FROM t ORDER BY v')).map((r) => r.v);
}

const insert = (v: string) => db.run('INSERT INTO t (v) VALUES (?)', [v]);

describe('group jobs', () => {
  it('answers every input with its own output, however the inputs fall into groups', async () => {
    const calls: string[][] = [];
    const upper: GroupJob<string, string> = async (tx, inputs) => {
      calls.push([...inputs]);
      for (const v of inputs) await tx.run('INSERT INTO t (v) VALUES (?)', [v]);
      return inputs.map((v) => v.toUpperCase());
    };
    // The first input finds the writer idle and starts a job at once; the rest arrive while it
    // runs and wait, together, for the next one.
    const answers = await Promise.all(
      ['g1', 'g2', 'g3', 'g4', 'g5'].map((v) => committer.joinGroup(upper, v)),
    );
    expect(answers).toEqual(['G1', 'G2', 'G3', 'G4', 'G5']);
    expect(calls).toEqual([['g1'], ['g2', 'g3', 'g4', 'g5']]);
    expect(await values()).toEqual(expect.arrayContaining(['g1', 'g2', 'g3', 'g4', 'g5']));
  });

  it('closes a group whose batch never began: its inputs are refused, the next input starts a new group', async () => {
    const upper: GroupJob<string, string> = async (_tx, inputs) => inputs.map((v) => v.toUpperCase());
    const other = await Connection.open(`${tmp.dir}/committer.db`);
    try {
      await db.exec('PRAGMA busy_timeout = 0');
      // A lone autocommit job holds no lock: while it runs, another connection takes the write
      // lock, so the batch queued behind it (a group and a job) cannot even begin.
      const blocker = committer.submit(() => other.exec('BEGIN IMMEDIATE'), {
        savepoint: false,
        autocommit: true,
      });
      const grouped = committer.joinGroup(upper, 'early');
      const job = committer.submit(() => insert('never'));
      await blocker;
      const refused = await Promise.allSettled([grouped, job]);
      expect(refused.map((r) => r.status)).toEqual(['rejected', 'rejected']);
      await other.exec('ROLLBACK');
      await db.exec('PRAGMA busy_timeout = 10000');
      expect(await committer.joinGroup(upper, 'late')).toBe('LATE');
    } finally {
      await other.close();
    }
  }, 10_000);

  it('rejects every input of a failing group, and the next group still runs', async () => {
    const failing: GroupJob<string, string> = async (_tx, inputs) => {
      if (inputs.includes('bad')) throw new Error('refused');
      return [...inputs];
    };
    const blocker = committer.submit(() => new Promise((resolve) => setTimeout(resolve, 20)));
    const first = ['ok1', 'bad'].map((v) => committer.joinGroup(failing, v));
    await blocker;
    const results = await Promise.allSettled(first);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(await committer.joinGroup(failing, 'ok2')).toBe('ok2');
  });
});

describe('jobs', () => {
  it('undoes a failing job with a savepoint, keeping the other jobs of its transaction', async () => {
    const blocker = committer.submit(() => new Promise((resolve) => setTimeout(resolve, 20)));
    const kept = committer.submit(() => insert('s-kept'));
    const undone = committer.submit(async () => {
      await insert('s-undone');
      await insert('s-kept'); // a duplicate: the job fails after its first write
    });
    await blocker;
    await expect(kept).resolves.toBeDefined();
    await expect(undone).rejects.toThrow(/UNIQUE/);
    const now = await values();
    expect(now).toContain('s-kept');
    expect(now).not.toContain('s-undone');
  });

  it("fails the whole batch when a job's failure took the transaction with it, as SQLite's full disk does: no later job commits on its own", async () => {
    const blocker = committer.submit(() => new Promise((resolve) => setTimeout(resolve, 20)));
    const before = committer.submit(() => insert('r-before'));
    // SQLITE_FULL and SQLITE_IOERR may roll the whole transaction back before the error
    // reaches the job: staged here by the job itself.
    const failing = committer.submit(async (tx) => {
      await tx.run('ROLLBACK');
      throw new Error('SQLITE_IOERR: disk I/O error');
    });
    const after = committer.submit(() => insert('r-after'));
    await blocker;
    const results = await Promise.allSettled([before, failing, after]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
    const now = await values();
    expect(now).not.toContain('r-before');
    expect(now).not.toContain('r-after');
    // The writer goes on.
    await committer.submit(() => insert('r-next'));
    expect(await values()).toContain('r-next');
  });

  it('runs an autocommit job alone without a transaction: each statement is committed when it returns', async () => {
    const other = await Connection.open(`${tmp.dir}/committer.db`);
    try {
      const seenMidJob = await committer.submit(
        async () => {
          await insert('a-first');
          // Another connection sees only committed rows.
          const row = await other.get<{ v: string }>('SELECT v FROM t WHERE v = ?', ['a-first']);
          await insert('a-second');
          return row?.v;
        },
        { savepoint: false, autocommit: true },
      );
      expect(seenMidJob).toBe('a-first');
    } finally {
      await other.close();
    }
  });

  it('never lets a job that must run outside a transaction share a batch: a checkpoint queued between writes', async () => {
    // All three queue while the blocker runs, so they reach the writer together.
    const blocker = committer.submit(() => new Promise((resolve) => setTimeout(resolve, 20)));
    const before = committer.submit(() => insert('c-before'));
    const checkpoint = committer.submit((tx) => tx.get<{ busy: number }>('PRAGMA wal_checkpoint(TRUNCATE)'), {
      savepoint: false,
      alone: true,
    });
    const after = committer.submit(() => insert('c-after'));
    await blocker;
    // Inside a transaction SQLite refuses a checkpoint ("database table is locked").
    expect(await checkpoint).toMatchObject({ busy: 0 });
    await Promise.all([before, after]);
    expect(await values()).toEqual(expect.arrayContaining(['c-before', 'c-after']));
  });
});
