/**
 * Summary of a V8 .cpuprofile (node --cpu-prof): self time per function and per origin (the
 * server's own code, a package, Node's internals, V8's own states), as shares of the profile.
 * The profile covers the main thread only: work the `sqlite3` driver does on libuv's thread
 * pool shows up as main-thread idle time, not as driver functions.
 */
import { readFileSync } from 'node:fs';

/** The parts of a .cpuprofile read here. */
interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface Share {
  name: string;
  share: number;
  busyShare: number;
}

export interface ProfileSummary {
  busyShare: number;
  functions: (Share & { where: string })[];
  origins: Share[];
}

function origin(url: string, functionName: string): string {
  if (functionName === '(idle)' || functionName === '(program)' || functionName === '(garbage collector)') {
    return functionName;
  }
  if (!url) return '(native: V8 builtins and addons)';
  if (url.startsWith('node:'))
    return /node:(_http|http|net|stream|internal\/(http|streams|stream_base))/.test(url)
      ? 'Node http/net/streams'
      : 'Node other internals';
  const pkg = url.match(/node_modules\/\.pnpm\/((?:@[^+/]+\+)?[^@/]+)@/);
  if (pkg?.[1]) return pkg[1].replace('+', '/');
  if (url.includes('reference-server/dist/')) return 'reference server code';
  return url.replace(/^file:\/\//, '');
}

function shortUrl(url: string): string {
  if (!url) return '';
  const pkg = url.match(/node_modules\/\.pnpm\/[^/]+\/node_modules\/(.+)$/);
  if (pkg?.[1]) return pkg[1];
  return url.replace(/^file:\/\/.*\/(reference-server\/)/, '$1').replace(/^file:\/\//, '');
}

/**
 * The `top` functions by self time, and every origin, over the samples of `window`: a time span
 * given backwards from the end of the profile (the process's exit) in microseconds.
 */
export function summarizeProfile(
  path: string,
  { top, window }: { top: number; window: { endBeforeExitUs: number; lengthUs: number } },
): ProfileSummary {
  const profile = JSON.parse(readFileSync(path, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  const { samples, timeDeltas } = profile;
  const last = profile.endTime;
  const to = last - window.endBeforeExitUs;
  const from = to - window.lengthUs;
  let total = 0;
  let at = profile.startTime;
  for (let i = 0; i < samples.length; i++) {
    at += timeDeltas[i] ?? 0;
    if (at < from || at > to) continue;
    const dt = timeDeltas[i + 1] ?? 0;
    const id = samples[i] as number;
    self.set(id, (self.get(id) ?? 0) + dt);
    total += dt;
  }
  const fns = new Map<string, number>();
  const origins = new Map<string, number>();
  for (const [id, us] of self) {
    const node = byId.get(id);
    if (!node) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    const name = functionName || '(anonymous)';
    const where = url ? `${shortUrl(url)}:${lineNumber + 1}` : '';
    const key = `${name}\u0000${where}`;
    fns.set(key, (fns.get(key) ?? 0) + us);
    const o = origin(url, name);
    origins.set(o, (origins.get(o) ?? 0) + us);
  }
  const idle = origins.get('(idle)') ?? 0;
  const sorted = (m: Map<string, number>) => [...m.entries()].sort((a, b) => b[1] - a[1]);
  return {
    busyShare: 1 - idle / total,
    functions: sorted(fns)
      .filter(([k]) => !k.startsWith('(idle)'))
      .slice(0, top)
      .map(([k, us]) => {
        const [name = '', where = ''] = k.split('\u0000');
        return { name, where, share: us / total, busyShare: us / (total - idle) };
      }),
    origins: sorted(origins).map(([name, us]) => ({
      name,
      share: us / total,
      busyShare: us / (total - idle),
    })),
  };
}
