import { defineProject } from 'vitest/config';

export default defineProject({
  // The integration tests start a real server and run its command line: the server suite's timeout.
  test: { name: 'client', environment: 'node', testTimeout: 60_000, hookTimeout: 120_000 },
});
