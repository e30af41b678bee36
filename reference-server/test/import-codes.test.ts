/**
 * An import's referral codes (store/statements/import.ts `freeCodes`), on whichever store the run
 * uses: a staged row whose drawn code the list or an earlier row holds draws again, and a code
 * drawn again is checked against every row, before it and after it, until none is taken. A million
 * rows always meet a few hundred such codes; here the draws are chosen to meet them.
 */
import { tempDir } from '@waitlistkit/testkit';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../src/adapters/clock.js';
import { must } from '../src/app/refusal.js';
import { openStore, operatorServices } from '../src/container.js';
import type { Db } from '../src/store/db.js';
import type { Dialect } from '../src/store/dialect.js';
import { Connection as PgConnection } from '../src/store/postgres/connection.js';
import { postgres } from '../src/store/postgres/dialect.js';
import { Connection as SqliteConnection } from '../src/store/sqlite/connection.js';
import { sqlite } from '../src/store/sqlite/dialect.js';
import { CREATE_STAGING, freeCodes, type StagedRow, stageRows } from '../src/store/statements/import.js';
import { isPostgres } from './database.js';

const dir = tempDir();
let waitlistId: string;
let listCode: string;

beforeAll(async () => {
  const store = await openStore(dir.db, { oneShot: true });
  try {
    const ops = operatorServices(store, systemClock);
    const tenant = must(await ops.tenants.create('T', 'pro'));
    const waitlist = must(await ops.waitlists.create({ tenantId: tenant.id }, 'W', { referrals: true }));
    waitlistId = waitlist.id;
    const signup = await store.write((tx) =>
      tx.subscribers.signUp(
        {
          waitlistId,
          email: 'on@example.com',
          emailNorm: 'on@example.com',
          referralCode: undefined,
          confirm: false,
        },
        systemClock.nowMicros(),
      ),
    );
    if (signup.outcome === 'waitlist_gone') throw new Error('waitlist gone');
    listCode = signup.subscriber.referral_code;
  } finally {
    await store.close();
  }
});
afterAll(() => dir.cleanup());

/** A connection of the import's kind with its staging table, and how to end it. */
async function staging(): Promise<{ db: Db; d: Dialect; end: () => Promise<void> }> {
  if (isPostgres(dir.db)) {
    const client = new pg.Client({ connectionString: dir.db });
    await client.connect();
    const db = new PgConnection(client as unknown as pg.PoolClient);
    await db.exec(CREATE_STAGING);
    return { db, d: postgres, end: () => client.end() };
  }
  const db = await SqliteConnection.open(dir.db);
  await db.exec(CREATE_STAGING);
  return { db, d: sqlite, end: () => db.close() };
}

const row = (line: number, code: string): StagedRow => ({
  line,
  id: `sub_codes${line}`,
  email: `r${line}@example.com`,
  key: `r${line}@example.com`,
  norm: `r${line}@example.com`,
  search: `r${line}@example.com`,
  referralCode: code,
  statusToken: `token${line}`,
  confirmToken: null,
  joinedUs: null,
  referrerKey: null,
  referral: 'none',
  fields: null,
  source: null,
  sourceChannel: null,
  variantKey: null,
  lang: null,
});

describe('an import’s referral codes', () => {
  it('are drawn again while the list or another staged row holds them, a redrawn one checked against rows after it too', async () => {
    const { db, d, end } = await staging();
    try {
      await stageRows(db, d, [row(2, listCode), row(3, 'BBBBBB'), row(4, 'BBBBBB'), row(5, 'EEEEEE')]);
      // Line 2 holds the list's code and line 4 line 3's: both draw again. Line 2's new code is
      // line 3's (after it in the draw, before it in the file), line 4's is line 5's: both again.
      const draws = ['BBBBBB', 'EEEEEE', 'CCCCCC', 'DDDDDD'];
      const drawn: string[] = [];
      await freeCodes(db, d, waitlistId, () => {
        const code = draws[drawn.length] ?? 'ZZZZZZ';
        drawn.push(code);
        return code;
      });
      expect(drawn).toEqual(draws);
      const codes = await db.all<{ line: number; code: string }>(
        'SELECT line, code FROM import_rows ORDER BY line',
      );
      expect(codes.map((c) => [Number(c.line), c.code])).toEqual([
        [2, 'CCCCCC'],
        [3, 'BBBBBB'],
        [4, 'DDDDDD'],
        [5, 'EEEEEE'],
      ]);
    } finally {
      await end();
    }
  });

  it('draws nothing when no code is taken', async () => {
    const { db, d, end } = await staging();
    try {
      await stageRows(db, d, [row(2, 'FFFFFF'), row(3, 'GGGGGG')]);
      let draws = 0;
      await freeCodes(db, d, waitlistId, () => {
        draws++;
        return 'HHHHHH';
      });
      expect(draws).toBe(0);
    } finally {
      await end();
    }
  });
});
