/**
 * A throwaway PostgreSQL cluster for tests: `initdb` in a temporary folder, a server on a free
 * local port, stopped and removed at the end. A test run starts one (vitest's globalSetup) and
 * each harness takes a fresh database of it, so tests share a server but never a table.
 *
 * The binaries are Debian's (`/usr/lib/postgresql/<version>/bin`), or whatever `initdb` is on
 * the PATH elsewhere. PostgreSQL refuses to run as root, and CI runs as root: then the cluster
 * runs as the `postgres` user the package created, in a folder that user owns.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The environment variable that holds a running cluster's URL: set, `tempDir()` hands out databases of it. */
export const TEST_POSTGRES_ENV = 'WAITLIST_TEST_POSTGRES';

export interface PostgresCluster {
  /** The cluster's `postgres` database, as the superuser (trust authentication, local only). */
  url: string;
  /** Its data folder (`postmaster.pid` names the server's process). */
  dataDir: string;
  /** Stops the server and removes the cluster. */
  stop(): Promise<void>;
  /**
   * Stops the server and keeps the cluster, to start it again with `restart`: `immediate` as a
   * crash or a pulled plug (every connection cut at once, no checkpoint), `fast` as an operator's
   * orderly stop (connections told, then closed).
   */
  halt(mode?: 'immediate' | 'fast'): Promise<void>;
  /** Starts a halted server again, on the same port with the same settings; resolves once it takes connections. */
  restart(): Promise<void>;
}

export interface PostgresOptions {
  /**
   * Server settings (`name=value`, each given as `-c name=value`) after the tests' own, which
   * they override: the benchmarks turn durability back on.
   */
  settings?: readonly string[];
}

/** Where the server's programs are: the newest Debian version installed, else the PATH. */
function binDir(): string {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return '';
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? '' : join(root, versions[0], 'bin');
}

/** Whether this machine has PostgreSQL's server programs (Debian's, or `initdb` on the PATH). */
export function postgresInstalled(): boolean {
  return binDir() !== '' || spawnSync('initdb', ['--version']).status === 0;
}

const program = (name: string) => {
  const dir = binDir();
  return dir === '' ? name : join(dir, name);
};

/** Root runs the server's programs as `postgres`: PostgreSQL will not start as root. */
const asRoot = process.getuid?.() === 0;

function runAsOwner(name: string, args: readonly string[]): void {
  const [command, full] = asRoot
    ? ['runuser', ['-u', 'postgres', '--', program(name), ...args]]
    : [program(name), [...args]];
  const result = spawnSync(command, full, { encoding: 'utf8' });
  if (result.error)
    throw new Error(`${name} could not run (is PostgreSQL installed?): ${result.error.message}`);
  if (result.status !== 0)
    throw new Error(`${name} ${args.join(' ')} failed:\n${result.stdout}${result.stderr}`);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export async function startPostgres(options: PostgresOptions = {}): Promise<PostgresCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'waitlistkit-pg-'));
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
  }
  const data = join(dir, 'data');
  const log = join(dir, 'server.log');
  // C collation with UTF-8: byte order, like SQLite's, and any address can be stored.
  runAsOwner('initdb', [
    '-D',
    data,
    '-A',
    'trust',
    '-U',
    'postgres',
    '-E',
    'UTF8',
    '--locale=C',
    '--no-sync',
  ]);
  const port = await freePort();
  // Durability is not what tests check: without fsync a test run does not wait on the disk.
  // Every harness opens pools of its own, hence the many connections.
  const settings = [
    `-p ${port}`,
    `-k ${dir}`,
    "-c listen_addresses='127.0.0.1'",
    '-c fsync=off',
    '-c synchronous_commit=off',
    '-c full_page_writes=off',
    '-c max_connections=600',
    '-c shared_buffers=64MB',
    ...(options.settings ?? []).map((setting) => `-c ${setting}`),
  ].join(' ');
  const start = () =>
    runAsOwner('pg_ctl', ['start', '-w', '-t', '60', '-D', data, '-l', log, '-o', settings]);
  try {
    start();
  } catch (error) {
    const printed = existsSync(log) ? readFileSync(log, 'utf8') : '';
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`${(error as Error).message}\n${printed}`);
  }
  let stopped = false;
  let running = true;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    try {
      if (running) runAsOwner('pg_ctl', ['stop', '-D', data, '-m', 'immediate']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
  // A run interrupted before its teardown (Ctrl-C, a crash) leaves no server behind.
  process.once('exit', stop);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    dataDir: data,
    async stop() {
      process.off('exit', stop);
      stop();
    },
    async halt(mode = 'immediate') {
      if (!running) return;
      runAsOwner('pg_ctl', ['stop', '-w', '-D', data, '-m', mode]);
      running = false;
    },
    async restart() {
      if (running) return;
      start();
      running = true;
    },
  };
}

function clientArgs(url: URL): string[] {
  return ['-h', url.hostname, '-p', url.port || '5432', '-U', decodeURIComponent(url.username) || 'postgres'];
}

/**
 * A new, empty database on the cluster at `clusterUrl`; its URL. Synchronous (the `createdb`
 * client), so `tempDir()` stays a plain function for the tests that call it at their top.
 */
export function createDatabase(clusterUrl: string): string {
  const url = new URL(clusterUrl);
  const name = `waitlist_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 10)}`;
  const result = spawnSync(program('createdb'), [...clientArgs(url), name], { encoding: 'utf8' });
  if (result.status !== 0)
    throw new Error(`createdb ${name} failed: ${result.error?.message ?? result.stderr}`);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Drops a database made by `createDatabase`, ending whatever connections a failed test left. */
export function dropDatabase(databaseUrl: string): void {
  const url = new URL(databaseUrl);
  spawnSync(program('dropdb'), [...clientArgs(url), '--force', '--if-exists', url.pathname.slice(1)], {
    encoding: 'utf8',
  });
}
