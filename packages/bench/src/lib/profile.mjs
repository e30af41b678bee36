/**
 * Summary of a V8 .cpuprofile (node --cpu-prof): self time per function and per origin (the
 * server's own code, a package, Node's internals, V8's own states), as shares of the profile.
 * The profile covers the main thread only: work the `sqlite3` driver does on libuv's thread
 * pool shows up as main-thread idle time, not as driver functions.
 */
import { readFileSync } from 'node:fs';

function origin(url, functionName) {
  if (functionName === '(idle)' || functionName === '(program)' || functionName === '(garbage collector)') {
    return functionName;
  }
  if (!url) return '(native: V8 builtins and addons)';
  if (url.startsWith('node:'))
    return /node:(_http|http|net|stream|internal\/(http|streams|stream_base))/.test(url)
      ? 'Node http/net/streams'
      : 'Node other internals';
  const pkg = url.match(/node_modules\/\.pnpm\/((?:@[^+/]+\+)?[^@/]+)@/);
  if (pkg) return pkg[1].replace('+', '/');
  if (url.includes('reference-server/dist/')) return 'reference server code';
  return url.replace(/^file:\/\//, '');
}

function shortUrl(url) {
  if (!url) return '';
  const pkg = url.match(/node_modules\/\.pnpm\/[^/]+\/node_modules\/(.+)$/);
  if (pkg) return pkg[1];
  return url.replace(/^file:\/\/.*\/(reference-server\/)/, '$1').replace(/^file:\/\//, '');
}

/**
 * `window` (optional) keeps only the samples of a time span, given backwards from the end of the
 * profile (the process's exit) in microseconds: `{ endBeforeExitUs, lengthUs }`.
 */
export function summarizeProfile(path, { top = 12, window } = {}) {
  const profile = JSON.parse(readFileSync(path, 'utf8'));
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  const { samples, timeDeltas } = profile;
  const last = profile.endTime;
  const to = window ? last - window.endBeforeExitUs : Number.POSITIVE_INFINITY;
  const from = window ? to - window.lengthUs : Number.NEGATIVE_INFINITY;
  let total = 0;
  let at = profile.startTime;
  for (let i = 0; i < samples.length; i++) {
    at += timeDeltas[i];
    if (at < from || at > to) continue;
    const dt = timeDeltas[i + 1] ?? 0;
    self.set(samples[i], (self.get(samples[i]) ?? 0) + dt);
    total += dt;
  }
  const fns = new Map();
  const origins = new Map();
  for (const [id, us] of self) {
    const { functionName, url, lineNumber } = byId.get(id).callFrame;
    const name = functionName || '(anonymous)';
    const where = url ? `${shortUrl(url)}:${lineNumber + 1}` : '';
    const key = `${name}\u0000${where}`;
    fns.set(key, (fns.get(key) ?? 0) + us);
    const o = origin(url, name);
    origins.set(o, (origins.get(o) ?? 0) + us);
  }
  const idle = origins.get('(idle)') ?? 0;
  const sorted = (m) => [...m.entries()].sort((a, b) => b[1] - a[1]);
  return {
    totalMs: total / 1000,
    idleShare: idle / total,
    busyShare: 1 - idle / total,
    functions: sorted(fns)
      .filter(([k]) => !k.startsWith('(idle)'))
      .slice(0, top)
      .map(([k, us]) => {
        const [name, where] = k.split('\u0000');
        return { name, where, share: us / total, busyShare: us / (total - idle) };
      }),
    origins: sorted(origins).map(([name, us]) => ({
      name,
      share: us / total,
      busyShare: us / (total - idle),
    })),
  };
}
