/**
 * The reference server's own storage code (the `sqlite3` wrapper, the group committer, the
 * signup and list queries), compiled from `reference-server/src` with esbuild into the run's
 * temporary folder, so the driver benchmark runs exactly what the server runs. `sqlite3` stays
 * the server's own copy (an absolute import); the rest is bundled.
 */
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { ROOT } from './proc.mjs';

const SRC = `${ROOT}reference-server/src`;

const ENTRY = `
export { Connection } from './db/sqlite.ts';
export { Committer } from './db/committer.ts';
export { configure } from './db/migrations.ts';
export { insertOrMatchMany, insertOrMatchSubscriber, listSubscribers } from './store/subscribers.ts';
export { settingsFromJson } from './domain/settings.ts';
export { commitSignup } from './services/signup.ts';
export { systemClock } from './services/clock.ts';
`;

export async function loadServerCode(tmpDir) {
  const serverRequire = createRequire(`${ROOT}reference-server/package.json`);
  const result = await build({
    stdin: { contents: ENTRY, resolveDir: SRC, loader: 'ts', sourcefile: 'bench-entry.ts' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    write: false,
    logLevel: 'silent',
    plugins: [
      {
        name: 'server-sqlite3',
        setup(b) {
          b.onResolve({ filter: /^sqlite3$/ }, () => ({
            path: pathToFileURL(serverRequire.resolve('sqlite3')).href,
            external: true,
          }));
        },
      },
    ],
  });
  const file = join(tmpDir, 'server-store.mjs');
  writeFileSync(file, result.outputFiles[0].text);
  return import(pathToFileURL(file).href);
}
