/**
 * The reference server's TypeScript source bundled with esbuild into one ES module in the run's
 * temporary folder, for benchmarks that need more than dist/ offers (a probe, or its store
 * functions on their own). The drivers (`sqlite3`, `pg`) stay the server's own copies, and
 * `import.meta.url` in the server's files is set to their real location, so the packages they load
 * with createRequire resolve as they do from dist/.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { WORKSPACE_ROOT } from './paths.js';

const SERVER = join(WORKSPACE_ROOT, 'reference-server');

/** Bundles `entry` (TypeScript, resolved from reference-server/src) into `outFile`; returns `outFile`. */
export async function bundleServerSource(entry: string, outFile: string): Promise<string> {
  const serverRequire = createRequire(join(SERVER, 'package.json'));
  const result = await build({
    stdin: { contents: entry, resolveDir: join(SERVER, 'src'), loader: 'ts', sourcefile: 'bench-entry.ts' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    write: false,
    logLevel: 'silent',
    // Bundled CommonJS packages call require; give the bundle one.
    banner: {
      js: "import { createRequire as __benchRequire } from 'node:module'; const require = __benchRequire(import.meta.url);",
    },
    plugins: [
      {
        name: 'server-in-place',
        setup(b) {
          // The drivers stay the server's own copies: sqlite3 is native, and pg would pull in
          // its optional pg-native, which is not installed.
          b.onResolve({ filter: /^(sqlite3|pg)$/ }, (args) => ({
            path: pathToFileURL(serverRequire.resolve(args.path)).href,
            external: true,
          }));
          b.onLoad({ filter: /reference-server\/src\/.*\.tsx?$/ }, (args) => ({
            contents: readFileSync(args.path, 'utf8').replaceAll(
              'import.meta.url',
              JSON.stringify(pathToFileURL(args.path).href),
            ),
            loader: args.path.endsWith('.tsx') ? 'tsx' : 'ts',
            resolveDir: args.path.slice(0, args.path.lastIndexOf('/')),
          }));
        },
      },
    ],
  });
  writeFileSync(outFile, result.outputFiles[0]?.text ?? '');
  return outFile;
}

/** `entry` bundled into `outFile` and imported: the server's own code, as `T` says it looks. */
export async function importServerSource<T>(entry: string, outFile: string): Promise<T> {
  return (await import(pathToFileURL(await bundleServerSource(entry, outFile)).href)) as T;
}
