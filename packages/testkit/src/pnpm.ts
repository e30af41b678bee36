import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The workspace root, where `pnpm -s waitlist-server` is defined. */
export const WORKSPACE_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * How to run pnpm from a test: the very pnpm that started the test run when there is one
 * (`npm_execpath`), otherwise the pinned version through npx.
 */
export function pnpmCommand(): [string, string[]] {
  const execpath = process.env.npm_execpath;
  if (execpath && /pnpm/.test(execpath)) return [process.execPath, [execpath]];
  return ['npx', ['-y', 'pnpm@10.34.8']];
}

/**
 * The environment for a child server or command: ours, minus the variables the server reads
 * (vitest sets BASE_URL=/ for Vite), plus what the test asks for.
 */
export function childEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(env)) {
    if (/^(BASE_URL|APP_URL|PORT|HOST|WAITLIST_.*)$/.test(name)) delete env[name];
  }
  for (const [name, value] of Object.entries(extra)) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return env;
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  env?: Record<string, string | undefined>;
  input?: string;
}

/** Runs `pnpm -s waitlist-server …args` from the workspace root and collects its output. */
export function runCli(args: readonly string[], options: CliOptions = {}): Promise<CliResult> {
  const [command, prefix] = pnpmCommand();
  return new Promise((resolve, reject) => {
    const child = spawn(command, [...prefix, '-s', 'waitlist-server', ...args], {
      cwd: WORKSPACE_ROOT,
      env: childEnv(options.env),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}

/** The JSON error a failed command printed on stderr (npm's own warnings skipped). */
export function cliError(result: CliResult): { code: string; message: string } {
  const line = result.stderr.split('\n').find((l) => l.startsWith('{"error"'));
  if (!line) throw new Error(`no JSON error on stderr:\n${result.stderr}`);
  return JSON.parse(line).error;
}
