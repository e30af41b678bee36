import { configDefaults, defineProject } from 'vitest/config';

/** Files about what only PostgreSQL does; the `server-pg` project (vitest.postgres.config.ts) runs them. */
export const POSTGRES_ONLY = [
  // Throttles counted across processes: on SQLite each process counts its own, by design.
  'test/instances-throttles.test.ts',
  // PostgreSQL's migrations, run on a database of the older schema.
  'test/migrations-postgres.test.ts',
];

export default defineProject({
  test: {
    name: 'server',
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    exclude: [...configDefaults.exclude, ...POSTGRES_ONLY],
  },
});
