/**
 * The benchmarks as Node 20 runs them: the runner, and the scripts it starts as threads or
 * processes of their own, each one ES module in dist/ (`pnpm bench` builds, then runs dist/run.js).
 * Packages stay external. testkit is TypeScript source, so it is bundled in, in place: see below.
 */
import { readFile } from 'node:fs/promises';
import { isBuiltin } from 'node:module';
import { pathToFileURL } from 'node:url';
import type { Plugin } from 'esbuild';
import { defineConfig } from 'tsup';

const TESTKIT_SRC = /\/packages\/testkit\/src\/[^/]+\.ts$/;
const RESOLVING = Symbol('resolving');

/**
 * testkit's modules behave in the bundle as in the tests: their `import.meta.url` stays their own
 * file's (testkit finds the workspace root and axe-core from it), and the packages they import are
 * testkit's own copies, imported by path (the bench's node_modules holds only the bench's
 * dependencies). Every other package import stays external as written.
 */
const testkitInPlace: Plugin = {
  name: 'testkit-in-place',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (
        args.pluginData === RESOLVING ||
        isBuiltin(args.path) ||
        args.path.startsWith('@waitlistkit/testkit')
      )
        return undefined;
      if (!TESTKIT_SRC.test(args.importer)) return { path: args.path, external: true };
      const resolved = await build.resolve(args.path, {
        kind: args.kind,
        resolveDir: args.resolveDir,
        pluginData: RESOLVING,
      });
      if (resolved.errors.length > 0) return { errors: resolved.errors };
      return { path: resolved.path, external: true };
    });
    build.onLoad({ filter: TESTKIT_SRC }, async (args) => ({
      contents: (await readFile(args.path, 'utf8')).replaceAll(
        'import.meta.url',
        JSON.stringify(pathToFileURL(args.path).href),
      ),
      loader: 'ts',
    }));
  },
};

export default defineConfig({
  entry: {
    run: 'src/run.ts',
    // Item 10's solving threads, item 8's webhook receiver thread, item 4f's SMTP sink thread,
    // item 4's hello-world processes.
    'attacker-solver': 'src/threads/attacker-solver.ts',
    'webhook-receiver': 'src/threads/webhook-receiver.ts',
    'smtp-sink': 'src/threads/smtp-sink.ts',
    hello: 'src/baselines/hello.ts',
  },
  format: ['esm'],
  platform: 'node',
  target: 'node20',
  splitting: false,
  sourcemap: true,
  clean: true,
  esbuildPlugins: [testkitInPlace],
});
