/**
 * Processes the benchmarks run: the built reference server (`reference-server/dist/cli.js`), its
 * operator command line, and the hello-world baselines. Each server is its own process, started
 * on port 0 with its logs quiet, and stopped with SIGTERM (it closes cleanly).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
export const CLI_PATH = `${ROOT}reference-server/dist/cli.js`;
const HELLO_PATH = fileURLToPath(new URL('../baselines/hello.mjs', import.meta.url));

/** The environment of a child: ours without the variables the server reads, plus `extra`. */
function childEnv(extra = {}) {
  const env = { ...process.env };
  for (const name of Object.keys(env)) {
    if (/^(BASE_URL|APP_URL|PORT|HOST|WAITLIST_.*)$/.test(name)) delete env[name];
  }
  return { ...env, ...extra };
}

export function requireBuilt() {
  if (!existsSync(CLI_PATH)) {
    throw new Error(
      `${CLI_PATH} is missing: build the server first (pnpm --filter @waitlistkit/server run build).`,
    );
  }
}

/**
 * The built command line, waiting out a rebuild in progress (tsup empties dist/ first): others
 * may build the server in the same checkout while a benchmark runs.
 */
async function built() {
  for (let waited = 0; !existsSync(CLI_PATH); waited += 250) {
    if (waited >= 60_000) requireBuilt();
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return CLI_PATH;
}

/**
 * Runs one operator command (`waitlist-server …`) on `db` and parses the JSON it prints; `env`:
 * server variables the command reads (e.g. WAITLIST_WEBHOOK_ALLOW_PRIVATE).
 */
export async function cli(args, db, env = {}) {
  const cliPath = await built();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cliPath, ...args, '--db', db], {
      cwd: ROOT,
      env: childEnv(env),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c) => {
      stdout += c;
    });
    child.stderr.setEncoding('utf8').on('data', (c) => {
      stderr += c;
    });
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0
        ? resolve(JSON.parse(stdout))
        : reject(new Error(`waitlist-server ${args.join(' ')} exited ${code}: ${stderr}`)),
    );
  });
}

/**
 * A tenant on the pro plan with an admin, one waitlist with `settings` (command-line options) and
 * a full-access key. Returns the ids and the key's value.
 */
export async function seedTenant(db, settings = []) {
  const tenant = await cli(['tenant', 'create', '--name', 'Bench', '--plan', 'pro'], db);
  const operator = await cli(
    [
      'operator',
      'create',
      '--tenant',
      tenant.id,
      '--email',
      `admin-${tenant.id}@bench.example`,
      '--role',
      'admin',
      '--password',
      'correct horse battery staple',
    ],
    db,
  );
  const waitlist = await cli(
    ['waitlist', 'create', '--tenant', tenant.id, '--name', 'Bench', ...settings],
    db,
  );
  const key = await cli(
    ['key', 'create', '--operator', operator.id, '--name', 'Bench', '--preset', 'full'],
    db,
  );
  return { tenantId: tenant.id, operatorId: operator.id, waitlistId: waitlist.waitlist_id, key: key.value };
}

/**
 * Spawns `node [nodeArgs] script [args]` and resolves once it printed a line that `ready`
 * recognises (returning the parsed port). `stop()` sends SIGTERM and waits for the exit.
 */
function startProcess({ nodeArgs = [], script, args = [], env = {}, ready, name, timeoutMs = 30_000 }) {
  const child = spawn(process.execPath, [...nodeArgs, script, ...args], {
    cwd: ROOT,
    env: childEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${name} did not start in time:\n${output}`));
    }, timeoutMs);
    let started = false;
    const onData = (chunk) => {
      output += chunk.toString('utf8');
      if (output.length > 1_000_000) output = output.slice(-100_000);
      if (started) return;
      const port = ready(output);
      if (port === undefined) return;
      started = true;
      clearTimeout(timer);
      resolve({
        name,
        pid: child.pid,
        port,
        url: `http://127.0.0.1:${port}`,
        output: () => output,
        async stop() {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
          const result = await exited;
          if (result.code !== 0 && result.signal !== 'SIGTERM') {
            throw new Error(`${name} exited with ${result.code ?? result.signal}:\n${output.slice(-4000)}`);
          }
          return result;
        },
      });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (chunk) => {
      output += chunk.toString('utf8');
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      if (!started) reject(new Error(`${name} exited with ${code} before listening:\n${output}`));
    });
  });
}

/**
 * The reference server on `db`, port 0, quiet logs; `script` replaces the built command line,
 * `args` are more options of `serve` (`--trust-proxy`).
 */
export async function startServer({
  db,
  env = {},
  nodeArgs = [],
  args = [],
  name = 'reference server',
  script,
}) {
  return startProcess({
    name,
    nodeArgs,
    script: script ?? (await built()),
    args: ['serve', '--port', '0', '--db', db, ...args],
    env: { WAITLIST_LOG: 'quiet', WAITLIST_SECRET: 'bench-secret-0123456789abcdef', ...env },
    ready: (output) => {
      const line = output.split('\n').find((l) => l.includes('"msg":"listening"'));
      return line ? JSON.parse(line).port : undefined;
    },
  });
}

/** A hello-world baseline server: `kind` is 'express' or 'node'. */
export function startHello(kind) {
  return startProcess({
    name: `${kind} hello-world`,
    script: HELLO_PATH,
    args: [kind],
    ready: (output) => {
      const match = output.match(/^listening (\d+)$/m);
      return match ? Number(match[1]) : undefined;
    },
  });
}
