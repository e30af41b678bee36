/**
 * A real reference server for tests: a child process on a temporary SQLite file (or a fresh
 * PostgreSQL database, when the run provides a cluster: see postgres.ts), on a free port, started by the built command line (or through `pnpm -s waitlist-server` when a test is
 * about that command). Tests talk to it over HTTP, like any client.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { childEnv, pnpmCommand, WORKSPACE_ROOT } from './pnpm.js';
import { createDatabase, dropDatabase, TEST_POSTGRES_ENV } from './postgres.js';

export const CLI_PATH = join(WORKSPACE_ROOT, 'reference-server/dist/cli.js');
const COMMAND_LINE_PATH = join(WORKSPACE_ROOT, 'reference-server/dist/command-line.js');

/**
 * A fresh folder and a fresh database for a test; `cleanup` removes both. The database is a file
 * in the folder, or, when `WAITLIST_TEST_POSTGRES` names a cluster, a new database of it (a
 * URL), so the same test runs on either store.
 */
export function tempDir(): { dir: string; db: string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'waitlistkit-'));
  const removeDir = () => rmSync(dir, { recursive: true, force: true });
  const cluster = process.env[TEST_POSTGRES_ENV];
  if (!cluster) return { dir, db: join(dir, 'waitlist.db'), cleanup: removeDir };
  const db = createDatabase(cluster);
  return {
    dir,
    db,
    cleanup: () => {
      dropDatabase(db);
      removeDir();
    },
  };
}

export interface RunningServer {
  url: string;
  port: number;
  db: string;
  child: ChildProcess;
  /** Everything the server printed so far (its structured logs). */
  output(): string;
  /** Sends a signal and resolves with the exit status. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export interface StartOptions {
  db: string;
  env?: Record<string, string | undefined>;
  args?: string[];
  /** `--port`: 0 (a free port) when absent; `null` gives no `--port`, so the server reads `PORT`. */
  port?: number | null;
  /** Start through `pnpm -s waitlist-server` instead of the built file directly. */
  viaPnpm?: boolean;
  /**
   * The server's entry point instead of the built `cli.js`: another build of the same command line,
   * such as the benchmarks' server compiled from source with a probe added.
   */
  script?: string;
  /** Options of node itself, before the script (the benchmarks' `--cpu-prof`). */
  nodeArgs?: string[];
  timeoutMs?: number;
}

/** Servers still running when the test process exits (a timed-out test never stopped its own). */
const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of live) signalGroup(child, 'SIGKILL');
});

/**
 * Signals the server's whole process group: through pnpm the server is a grandchild (pnpm, its
 * shell, then node), and a signal to pnpm alone left the server running after its test.
 */
function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    process.kill(-(child.pid as number), signal);
  } catch {
    child.kill(signal);
  }
}

export function startServer(options: StartOptions): Promise<RunningServer> {
  const port = options.port === null ? [] : ['--port', String(options.port ?? 0)];
  const args = ['serve', ...port, '--db', options.db, ...(options.args ?? [])];
  const [command, prefix] = options.viaPnpm
    ? [pnpmCommand()[0], [...pnpmCommand()[1], '-s', 'waitlist-server']]
    : [process.execPath, [...(options.nodeArgs ?? []), options.script ?? CLI_PATH]];
  const child = spawn(command, [...prefix, ...args], {
    cwd: WORKSPACE_ROOT,
    env: childEnv(options.env),
    stdio: ['ignore', 'pipe', 'pipe'],
    // A process group of its own, which stop() signals as a whole.
    detached: true,
  });
  let output = '';
  live.add(child);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => {
      live.delete(child);
      resolve({ code, signal });
    }),
  );
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signalGroup(child, 'SIGKILL');
      reject(new Error(`server did not start in time:\n${output}`));
    }, options.timeoutMs ?? 30_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const line = output.split('\n').find((l) => l.includes('"msg":"listening"'));
      if (!line) return;
      clearTimeout(timer);
      const { url, port } = JSON.parse(line) as { url: string; port: number };
      resolve({
        url,
        port,
        db: options.db,
        child,
        output: () => output,
        stop: (signal = 'SIGTERM') => {
          if (child.exitCode === null && child.signalCode === null) signalGroup(child, signal);
          return exited;
        },
      });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before listening:\n${output}`));
    });
  });
}

interface CommandLine {
  runCommandLine(
    argv: readonly string[],
    io: { stdout(text: string): void; stderr(text: string): void; env: NodeJS.ProcessEnv },
  ): Promise<number>;
}
let commandLine: Promise<CommandLine> | undefined;

/**
 * Runs the built command line in this process and parses its JSON: the same code as the binary
 * (tests of the binary itself use `runCli`), without the third of a second a process costs, which
 * setting up tenants paid hundreds of times per run.
 */
export async function cli<T = Record<string, unknown>>(
  args: readonly string[],
  options: { db: string; env?: Record<string, string | undefined> },
): Promise<T> {
  commandLine ??= import(pathToFileURL(COMMAND_LINE_PATH).href) as Promise<CommandLine>;
  const { runCommandLine } = await commandLine;
  let stdout = '';
  let stderr = '';
  const code = await runCommandLine([...args, '--db', options.db], {
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
    env: childEnv(options.env),
  });
  if (code !== 0) throw new Error(`waitlist-server ${args.join(' ')}: ${stderr}`);
  return JSON.parse(stdout) as T;
}

export interface Tenant {
  tenantId: string;
  operatorId: string;
  waitlistId: string;
  key: string;
}

/** A tenant on `plan` with an admin, a waitlist with the given settings options, and a full key. */
export async function seedTenant(
  db: string,
  { plan = 'pro', waitlist = [] as string[], preset = 'full' } = {},
): Promise<Tenant> {
  const tenant = await cli<{ id: string }>(['tenant', 'create', '--name', 'Test', '--plan', 'pro'], { db });
  const operator = await cli<{ id: string }>(
    [
      'operator',
      'create',
      '--tenant',
      tenant.id,
      '--email',
      `admin-${tenant.id}@test.example`,
      '--role',
      'admin',
      '--password',
      'correct horse battery',
    ],
    { db },
  );
  const list = await cli<{ waitlist_id: string }>(
    ['waitlist', 'create', '--tenant', tenant.id, '--name', 'Launch', ...waitlist],
    { db },
  );
  const key = await cli<{ value: string }>(
    ['key', 'create', '--operator', operator.id, '--name', 'Backend', '--preset', preset],
    { db },
  );
  if (plan !== 'pro') await cli(['tenant', 'set-plan', '--tenant', tenant.id, '--plan', plan], { db });
  return { tenantId: tenant.id, operatorId: operator.id, waitlistId: list.waitlist_id, key: key.value };
}
