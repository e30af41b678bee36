/**
 * SQLite's import (../statements/import.ts): a connection of its own, whose temporary table
 * stages the rows without taking the file's write lock, so the server's writer keeps committing
 * sign-ups while the file is read; the merge is one `BEGIN IMMEDIATE` transaction.
 */
import { generateReferralCode } from '@waitlistkit/protocol';
import { CREATE_STAGING, freeCodes, type ListImport, mergeImport, staging } from '../statements/import.js';
import { Connection } from './connection.js';
import { sqlite } from './dialect.js';
import { configure } from './migrations.js';

export async function openSqliteImport(path: string, waitlistId: string): Promise<ListImport> {
  const db = await Connection.open(path);
  await configure(db, { writer: true });
  // The staging goes to a temporary file, not memory: a million rows stay out of the process.
  await db.exec('PRAGMA temp_store = FILE');
  await db.exec(CREATE_STAGING);
  return {
    ...staging(db, sqlite, waitlistId),
    async commit(options) {
      await db.run('BEGIN IMMEDIATE');
      try {
        await freeCodes(db, sqlite, waitlistId, generateReferralCode);
        const counts = await mergeImport(db, waitlistId, options);
        await db.run(counts === null ? 'ROLLBACK' : 'COMMIT');
        return counts;
      } catch (error) {
        await db.run('ROLLBACK').catch(() => undefined);
        throw error;
      }
    },
    close: () => db.close(),
  };
}
