/**
 * PostgreSQL's import (../statements/import.ts): a connection of its own, whose temporary table
 * stages the rows; the merge is one transaction holding the waitlist's row lock, as sign-ups do,
 * and advances the waitlist's last join number and time, which sign-ups read under that lock.
 */
import { generateReferralCode } from '@waitlistkit/protocol';
import type pg from 'pg';
import { CREATE_STAGING, freeCodes, type ListImport, mergeImport, staging } from '../statements/import.js';
import { Connection, translated } from './connection.js';
import { postgres } from './dialect.js';

export async function openPostgresImport(pool: pg.Pool, waitlistId: string): Promise<ListImport> {
  const client = await pool.connect().catch((error: unknown) => {
    throw translated(error);
  });
  let broken: Error | undefined;
  client.on('error', (error) => {
    broken = error;
  });
  const db = new Connection(client);
  try {
    await db.exec(CREATE_STAGING);
  } catch (error) {
    client.release(true);
    throw error;
  }
  return {
    ...staging(db, postgres, waitlistId),
    async commit(options) {
      await db.exec('BEGIN ISOLATION LEVEL READ COMMITTED');
      try {
        await db.run('SELECT id FROM waitlists WHERE id = ? FOR UPDATE', [waitlistId]);
        await freeCodes(db, postgres, waitlistId, generateReferralCode);
        const counts = await mergeImport(db, waitlistId, options);
        if (counts === null) {
          await db.exec('ROLLBACK');
          return null;
        }
        await db.run(
          `UPDATE waitlists SET last_seq = last_seq + ?,
                  last_joined_us = greatest(last_joined_us,
                    coalesce((SELECT max(joined_us) FROM subscribers WHERE waitlist_id = ?), 0))
            WHERE id = ?`,
          [counts.imported, waitlistId, waitlistId],
        );
        await db.exec('COMMIT');
        return counts;
      } catch (error) {
        await db.exec('ROLLBACK').catch(() => undefined);
        throw error;
      }
    },
    // The temporary table is the session's: a connection handed back to the pool would keep it.
    close: async () => client.release(broken ?? true),
  };
}
