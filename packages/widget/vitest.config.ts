import { defineProject } from 'vitest/config';
import { solverVitePlugin } from './build/solver.js';

export default defineProject({
  plugins: [solverVitePlugin()],
  define: { WAITLIST_NODE: 'true' },
  test: { name: 'widget', environment: 'node' },
});
