/**
 * The processes the benchmarks measure: the reference server, started by testkit with the
 * benchmarks' environment, and the hello-world baselines of item 4 (baselines/hello.ts). A server
 * that crashed (any exit but a clean one on SIGTERM) fails the benchmark when it is stopped.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { childEnv, type RunningServer, type StartOptions, startServer } from '@waitlistkit/testkit';
import { distFile } from './paths.js';

export interface BenchServer extends Omit<RunningServer, 'stop'> {
  pid: number;
  stop(): Promise<void>;
}

/** Request logs off (under load they would cost the server its figures); one secret for every run. */
const BENCH_ENV = { WAITLIST_LOG: 'quiet', WAITLIST_SECRET: 'bench-secret-0123456789abcdef' };

function checkExit(
  name: string,
  status: { code: number | null; signal: string | null },
  output: string,
): void {
  if (status.code !== 0 && status.signal !== 'SIGTERM') {
    throw new Error(`${name} exited with ${status.code ?? status.signal}:\n${output.slice(-4000)}`);
  }
}

export async function startBenchServer(options: StartOptions): Promise<BenchServer> {
  const server = await startServer({ ...options, env: { ...BENCH_ENV, ...options.env } });
  return {
    ...server,
    pid: server.child.pid as number,
    async stop() {
      checkExit('the reference server', await server.stop(), server.output());
    },
  };
}

export interface HelloServer {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/** A hello-world baseline server, Express 5 or plain node:http, on a free port. */
export function startHello(kind: 'express' | 'node'): Promise<HelloServer> {
  const child: ChildProcess = spawn(process.execPath, [distFile('hello'), kind], {
    env: childEnv(),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the ${kind} hello-world did not start in time`));
    }, 30_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the ${kind} hello-world exited with ${code} before listening`));
    });
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).once('line', (line) => {
      clearTimeout(timer);
      const port = /^listening (\d+)$/.exec(line)?.[1];
      if (!port) return reject(new Error(`the ${kind} hello-world said ${JSON.stringify(line)}`));
      resolve({
        url: `http://127.0.0.1:${port}`,
        pid: child.pid as number,
        async stop() {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
          checkExit(`the ${kind} hello-world`, await exited, '');
        },
      });
    });
  });
}
