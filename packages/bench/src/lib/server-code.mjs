/**
 * The reference server's own storage code (the `sqlite3` wrapper, the group committer, the
 * signup and list queries), bundled from `reference-server/src` (server-source.mjs), so the
 * driver benchmark runs exactly what the server runs.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { bundleServerSource } from './server-source.mjs';

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
  const file = await bundleServerSource(ENTRY, join(tmpDir, 'server-store.mjs'));
  return import(pathToFileURL(file).href);
}
