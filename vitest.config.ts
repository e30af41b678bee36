import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // vitest's default is one file at a time on two cores; most of a server test waits on its
    // server, PostgreSQL or Chromium, so three at a time keep both cores busy.
    maxWorkers: 3,
    // The server's suite runs twice: on SQLite (`server`) and on PostgreSQL (`server-pg`).
    projects: ['packages/*', 'reference-server', 'reference-server/vitest.postgres.config.ts', 'examples/*'],
  },
});
