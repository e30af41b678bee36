import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // The server's suite runs twice: on SQLite (`server`) and on PostgreSQL (`server-pg`).
    projects: ['packages/*', 'reference-server', 'reference-server/vitest.postgres.config.ts', 'examples/*'],
  },
});
