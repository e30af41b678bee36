/**
 * The reference server compiled from source with one probe added: the group committer's
 * `commit(batch)` is timed, so a benchmark can ask how busy the single writer was under load
 * (SIGUSR2 makes the server print, on stderr, one `COMMITTER_STATS {…}` line and reset).
 * Nothing else changes: the probe wraps the method from outside the class at start-up (see
 * server-source.ts for how the source is bundled).
 */
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { bundleServerSource } from './server-source.js';
import type { BenchServer } from './servers.js';

const ENTRY = `
import { Committer } from './store/sqlite/committer.ts';

const proto = Committer.prototype as unknown as { commit?: (batch: unknown[]) => Promise<void> };
const original = proto.commit;
if (typeof original !== 'function') {
  throw new Error('Committer#commit is gone: update packages/bench/src/lib/instrumented-server.ts');
}
let stats = { batches: 0, busyMs: 0 };
proto.commit = async function (this: unknown, batch: unknown[]) {
  const started = performance.now();
  try {
    return await original.call(this, batch);
  } finally {
    stats.batches++;
    stats.busyMs += performance.now() - started;
  }
};
process.on('SIGUSR2', () => {
  process.stderr.write('COMMITTER_STATS ' + JSON.stringify(stats) + '\\n');
  stats = { batches: 0, busyMs: 0 };
});

await import('./cli.ts');
`;

/** Commits (batches) since the last ask, and the milliseconds the committer spent in them. */
export interface CommitterStats {
  batches: number;
  busyMs: number;
}

/** Builds the probed server; resolves to the path of its entry script. */
export function buildInstrumentedServer(tmpDir: string): Promise<string> {
  return bundleServerSource(ENTRY, join(tmpDir, 'server-probed.mjs'));
}

/** Asks a probed server for its committer figures since the last ask. */
export async function committerStats(server: BenchServer): Promise<CommitterStats> {
  const before = server.output().length;
  process.kill(server.pid, 'SIGUSR2');
  for (let waited = 0; waited < 5_000; waited += 20) {
    const line = server
      .output()
      .slice(before)
      .split('\n')
      .find((l) => l.startsWith('COMMITTER_STATS '));
    if (line) return JSON.parse(line.slice('COMMITTER_STATS '.length)) as CommitterStats;
    await sleep(20);
  }
  throw new Error('the probed server printed no committer figures');
}
