/**
 * globalSetup of the `server-pg` project: one throwaway PostgreSQL cluster for the whole run,
 * its URL handed to the test files (postgres-env.ts), each of which makes databases of its own.
 */
import { startPostgres } from '@waitlistkit/testkit';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresCluster: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const cluster = await startPostgres();
  project.provide('postgresCluster', cluster.url);
  return () => cluster.stop();
}
