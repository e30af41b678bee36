/**
 * The server's suite once more, on PostgreSQL (issue 16): the same test files as `server`
 * (vitest.config.ts), with every harness on a fresh database of a throwaway cluster. Left out,
 * the files about SQLite itself, which have no PostgreSQL meaning:
 */
import { configDefaults, defineProject } from 'vitest/config';
import server from './vitest.config.js';

const SQLITE_ONLY = [
  // The group committer and its batched statement: SQLite's single writer.
  'test/committer.test.ts',
  'test/signup-group.test.ts',
  // SQLite's migrations, run on an old SQLite file.
  'test/migrations.test.ts',
  // SQLite's query plans (EXPLAIN QUERY PLAN, INDEXED BY).
  'test/query-plans.test.ts',
  // The snapshot race, staged on SQLite's connections and statement modules.
  'test/snapshot.test.ts',
  // SQLite's FTS5 search index, driven through its statement modules (search over HTTP is in
  // list.test.ts, which runs here).
  'test/search-index.test.ts',
  // backup --to copies a SQLite file; with a postgres URL it is a usage error (cli-usage.test.ts).
  'test/backup.test.ts',
  // A SQLite file that cannot be written (full disk, read-only); PostgreSQL's outage has its own file.
  'test/outage-sqlite.test.ts',
];

export default defineProject({
  test: {
    ...server.test,
    name: 'server-pg',
    exclude: [...configDefaults.exclude, ...SQLITE_ONLY],
    globalSetup: ['test/postgres-cluster.ts'],
    setupFiles: ['test/postgres-env.ts'],
  },
});
