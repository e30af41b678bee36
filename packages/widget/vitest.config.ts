import { defineProject } from 'vitest/config';
import { solverVitePlugin } from './build/solver.js';

export default defineProject({
  plugins: [solverVitePlugin()],
  define: { WAITLIST_NODE: 'true' },
  // The browser tests drive Chromium against a local server: sized for a loaded machine (the
  // suite runs three files at a time on two cores), not vitest's 5 s default.
  test: { name: 'widget', environment: 'node', testTimeout: 60_000, hookTimeout: 120_000 },
});
