/**
 * The reference server's own storage code (the `sqlite3` wrapper, the group committer, the
 * signup and list queries), bundled from `reference-server/src` (server-source.mjs), so the
 * driver benchmark runs exactly what the server runs.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { bundleServerSource } from './server-source.mjs';

const ENTRY = `
export { Connection } from './store/sqlite/connection.ts';
export { Committer } from './store/sqlite/committer.ts';
export { configure } from './store/sqlite/migrations.ts';
export { insertOrMatchMany, insertOrMatchSubscriber } from './store/sqlite/subscribers.ts';
export { listSubscribers } from './store/sqlite/line.ts';
export { storeOver } from './store/sqlite/index.ts';
export { settingsFromJson } from './domain/settings.ts';
export { systemClock } from './adapters/clock.ts';
`;

export async function loadServerCode(tmpDir) {
  const file = await bundleServerSource(ENTRY, join(tmpDir, 'server-store.mjs'));
  return import(pathToFileURL(file).href);
}
