/**
 * setupFiles of the `server-pg` project: points testkit at the run's cluster, so every
 * `tempDir()` of the test file hands out a fresh PostgreSQL database instead of a SQLite file.
 */
import { TEST_POSTGRES_ENV } from '@waitlistkit/testkit';
import { inject } from 'vitest';

process.env[TEST_POSTGRES_ENV] = inject('postgresCluster');
