/**
 * `waitlist-server backup --to FILE` (docs/command-line.md#commands): a consistent copy of a live database, while
 * the server reads and writes it. `VACUUM INTO` reads the whole database in one read transaction,
 * so the copy is one committed state (in WAL mode writers go on meanwhile), and writes it
 * compacted, as a new file in rollback-journal mode that opens on its own (no -wal beside it).
 */
import {
  closeSync,
  existsSync,
  fsyncSync,
  lstatSync,
  openSync,
  realpathSync,
  rmSync,
  statSync,
} from 'node:fs';
import { dirname, resolve } from 'node:path';
import { DomainError } from '../../domain/errors.js';
import { Connection } from './connection.js';

export interface Backup {
  /** The copy's absolute path. */
  path: string;
  bytes: number;
}

const usage = (message: string, option: 'to' | 'db') => new DomainError('usage_error', message, option);

/** Flushes a file (or a directory's entry for it) to the disk. */
function fsyncPath(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Copies the database at `dbPath` to `to`, a file that must not exist yet in a directory that
 * must: a backup never overwrites anything, least of all the database itself.
 */
export async function backupDatabase(dbPath: string, to: string): Promise<Backup> {
  const source = resolve(dbPath);
  if (!existsSync(source)) throw usage(`There is no database at ${source}.`, 'db');
  const target = resolve(to);
  const taken = (() => {
    try {
      return lstatSync(target);
    } catch {
      return undefined;
    }
  })();
  if (taken) {
    if (existsSync(target) && realpathSync(target) === realpathSync(source)) {
      throw usage(`${target} is the database itself; give a new file.`, 'to');
    }
    throw usage(`${target} already exists; a backup never overwrites a file.`, 'to');
  }
  const directory = dirname(target);
  if (!existsSync(directory) || !statSync(directory).isDirectory()) {
    throw usage(`The directory ${directory} does not exist.`, 'to');
  }
  // Created here, empty and exclusively (VACUUM INTO writes into an empty file): a file that
  // appeared since the check above is refused, not overwritten, and a failure removes only ours.
  try {
    // Owner only, as the database itself: it holds the same secrets.
    closeSync(openSync(target, 'wx', 0o600));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
      throw usage(`${target} already exists; a backup never overwrites a file.`, 'to');
    }
    throw error;
  }
  const db = await Connection.open(source, { readonly: true });
  try {
    // Read-only, so it never takes the write lock the server's writer needs; the busy timeout
    // covers the moments a checkpoint holds the file.
    await db.exec('PRAGMA busy_timeout = 10000');
    await db.run('VACUUM INTO ?', [target]);
  } catch (error) {
    // What a failed VACUUM INTO leaves behind is not a backup.
    rmSync(target, { force: true });
    throw error;
  } finally {
    await db.close();
  }
  // VACUUM INTO does not sync what it wrote: the copy, then its entry in the directory.
  fsyncPath(target);
  fsyncPath(directory);
  return { path: target, bytes: statSync(target).size };
}
