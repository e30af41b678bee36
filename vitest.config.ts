import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Three files at a time on two cores: most of a server test is waiting on its server, its
    // database or Chromium (the whole command used about half the CPU with the default of two).
    maxWorkers: 3,
    // The server's suite runs twice: on SQLite (`server`) and on PostgreSQL (`server-pg`).
    projects: ['packages/*', 'reference-server', 'reference-server/vitest.postgres.config.ts', 'examples/*'],
  },
});
