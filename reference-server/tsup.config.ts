import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/cli.ts'],
  format: ['esm'],
  platform: 'node',
  target: 'node20',
  clean: true,
  sourcemap: true,
  // Dependencies stay external: sqlite3 is a native addon and the rest resolve from node_modules.
  banner: { js: '#!/usr/bin/env node' },
});
