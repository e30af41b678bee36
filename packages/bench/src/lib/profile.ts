/**
 * Summary of a V8 .cpuprofile (node --cpu-prof): self time per function, per origin (the
 * server's own code, a package, Node's internals, V8's own states) and per group of what a
 * sign-up does (the server's bundled code mapped back to its source files through dist/'s source
 * maps), as shares of the profile. The profile covers the main thread only: work the `sqlite3`
 * driver does on libuv's thread pool shows up as main-thread idle time, not as driver functions.
 */
import { existsSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { fileURLToPath } from 'node:url';

/** The parts of a .cpuprofile read here. */
interface CpuProfile {
  nodes: {
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number; columnNumber?: number };
  }[];
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
  /** What the main thread did, in the groups of `GROUPS`. */
  groups: Share[];
}

/** The groups of a sign-up's main-thread work, in the order a table shows them. */
export const GROUPS = [
  'Node http: parsing, sockets, writes',
  'Express and its router',
  'our HTTP door: body read, answer, request id (http/, web/)',
  'body validation (protocol package, zod)',
  'checks and decision (app/, domain/)',
  'store on the main thread: committer, group job, sqlite3 calls and callbacks (store/)',
  'Node: events, promises, timers, other internals',
  'V8: builtins, (program)',
  '(garbage collector)',
  'other',
] as const;

const EXPRESS = new Set(['express', 'router', 'path-to-regexp', 'parseurl', 'finalhandler', 'on-finished']);
const NATIVE_WRITES = new Set([
  'writev',
  'writeUtf8String',
  'writeLatin1String',
  'writeBuffer',
  'writeAsciiString',
]);

/** Maps a bundled file's line and column (0-based) to its source file, through the file's `.map`. */
function sourceFiles(): (url: string, line: number, column: number) => string | undefined {
  const maps = new Map<string, SourceMap | undefined>();
  return (url, line, column) => {
    if (!maps.has(url)) {
      const path = url.startsWith('file://') ? fileURLToPath(url) : url;
      maps.set(
        url,
        existsSync(`${path}.map`)
          ? new SourceMap(JSON.parse(readFileSync(`${path}.map`, 'utf8')))
          : undefined,
      );
    }
    const entry = maps.get(url)?.findEntry(line, column) as { originalSource?: string } | undefined;
    return entry?.originalSource;
  };
}

function groupOf(
  source: ReturnType<typeof sourceFiles>,
  frame: { functionName: string; url: string; lineNumber: number; columnNumber?: number },
): (typeof GROUPS)[number] {
  const { functionName: name, url } = frame;
  if (name === '(garbage collector)') return '(garbage collector)';
  if (!url)
    return NATIVE_WRITES.has(name) ? 'Node http: parsing, sockets, writes' : 'V8: builtins, (program)';
  if (url.startsWith('node:'))
    return /node:(_http|http|net|stream|internal\/(http|streams|stream_base))/.test(url)
      ? 'Node http: parsing, sockets, writes'
      : 'Node: events, promises, timers, other internals';
  if (url.includes('/packages/protocol/')) return 'body validation (protocol package, zod)';
  const pkg = url.match(/node_modules\/\.pnpm\/((?:@[^+/]+\+)?[^@/]+)@/)?.[1];
  if (pkg === 'zod') return 'body validation (protocol package, zod)';
  if (pkg && EXPRESS.has(pkg)) return 'Express and its router';
  if (!url.includes('reference-server/dist/')) return 'other';
  const file = source(url, frame.lineNumber, frame.columnNumber ?? 0) ?? '';
  if (/\/src\/(http|web)\//.test(file)) return 'our HTTP door: body read, answer, request id (http/, web/)';
  if (/\/src\/(app|domain)\//.test(file)) return 'checks and decision (app/, domain/)';
  if (/\/src\/store\//.test(file))
    return 'store on the main thread: committer, group job, sqlite3 calls and callbacks (store/)';
  return 'other';
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
  const groups = new Map<string, number>();
  const source = sourceFiles();
  for (const [id, us] of self) {
    const node = byId.get(id);
    if (!node) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    if (functionName !== '(idle)') {
      const group = groupOf(source, node.callFrame);
      groups.set(group, (groups.get(group) ?? 0) + us);
    }
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
    groups: GROUPS.map((name) => ({
      name,
      share: (groups.get(name) ?? 0) / total,
      busyShare: (groups.get(name) ?? 0) / (total - idle),
    })),
  };
}
