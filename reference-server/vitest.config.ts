import { configDefaults, defineProject } from 'vitest/config';

/** Files about what only PostgreSQL does; the `server-pg` project (vitest.postgres.config.ts) runs them. */
export const POSTGRES_ONLY = [
  // Throttles counted across processes: on SQLite each process counts its own, by design.
  'test/instances-throttles.test.ts',
  // PostgreSQL stopped and started under the server: a cluster of the file's own.
  'test/outage-postgres.test.ts',
  // PostgreSQL's migrations, run on a database of the older schema.
  'test/migrations-postgres.test.ts',
  // A group of sign-ups the database refuses one of: SQLite's committer fails a group job whole.
  'test/signup-groups-postgres.test.ts',
  // A process killed among three: its leases outlive it only on a database the others share.
  'test/instances-killed.test.ts',
];

export default defineProject({
  test: {
    name: 'server',
    environment: 'node',
    // Every file starts servers (and some Chromium): sized for a loaded two-core machine running
    // three files at once, never for an idle one.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    exclude: [...configDefaults.exclude, ...POSTGRES_ONLY],
  },
});
