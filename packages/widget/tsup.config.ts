import { defineConfig, type Options } from 'tsup';
import { pureZodPlugin } from './build/pure-zod.js';
import { PROTOCOL_SOURCE, solverEsbuildPlugin } from './build/solver.js';

const common: Options = {
  target: 'es2022',
  // Not tsup's `clean`: the builds below run in parallel and would delete each other's output.
  // The build script empties `dist` first.
  clean: false,
  // The protocol is compiled from source so only the few functions used are kept.
  noExternal: ['@waitlistkit/protocol'],
  esbuildOptions(options) {
    options.alias = { ...options.alias, '@waitlistkit/protocol': PROTOCOL_SOURCE };
  },
};

export default defineConfig([
  // npm entry points: mount, subscribe, the element, the errors and the types.
  {
    ...common,
    entry: { index: 'src/index.ts' },
    format: ['esm', 'cjs'],
    dts: true,
    sourcemap: true,
    // Explicit extensions, whatever the nearest package.json says (see scripts/finish-build.mjs).
    outExtension: ({ format }) => ({ js: format === 'esm' ? '.mjs' : '.cjs' }),
    define: { WAITLIST_NODE: 'true' },
    esbuildPlugins: [solverEsbuildPlugin(), pureZodPlugin()],
  },
  // The script-tag file: one minified IIFE with everything inlined.
  {
    ...common,
    entry: { waitlist: 'src/script.ts' },
    format: ['iife'],
    platform: 'browser',
    // `export {}`: gives the package's "./waitlist.js" export the types it needs.
    dts: true,
    // terser rather than esbuild's minifier: 2.5 % smaller after gzip, which the 15 kB budget needs.
    minify: 'terser',
    terserOptions: { compress: { passes: 2 }, mangle: { toplevel: true } },
    define: { WAITLIST_NODE: 'false' },
    esbuildPlugins: [solverEsbuildPlugin(), pureZodPlugin()],
    outExtension: () => ({ js: '.js' }),
  },
]);
