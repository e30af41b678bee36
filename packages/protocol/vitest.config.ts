import { defineProject } from 'vitest/config';

export default defineProject({
  // Property tests run thousands of cases: sized for a loaded machine, not vitest's 5 s default.
  test: { name: 'protocol', environment: 'node', testTimeout: 30_000 },
});
