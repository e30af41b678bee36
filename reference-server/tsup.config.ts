import { defineConfig } from 'tsup';

export default defineConfig({
  entry: {
    cli: 'src/cli.ts',
    // The command line as a function (cli/main.ts): tests set up their data with it in process.
    'command-line': 'src/cli/main.ts',
    // The sending thread's entry (adapters/sending-thread.ts starts it from beside itself).
    'sending-thread': 'src/sending-thread.ts',
  },
  format: ['esm'],
  platform: 'node',
  target: 'node20',
  clean: true,
  sourcemap: true,
  // Dependencies stay external: sqlite3 is a native addon and the rest resolve from node_modules.
  banner: { js: '#!/usr/bin/env node' },
});
