/**
 * Where engines run. The engine is one function (`virtual:waitlist-solver`): its source becomes
 * a Blob worker in browsers and an `eval` worker in Node, and it is called directly on the main
 * thread when workers are unavailable. No second file, no eval on the main thread.
 */
import solver from 'virtual:waitlist-solver';
import type { Report, ToEngine } from './messages.js';

export interface EnginePort {
  send(message: ToEngine): void;
  close(): void;
}

/** Starts one engine. May throw (a CSP forbidding blob: workers throws in some browsers). */
export type Spawn = (onReport: (report: Report) => void, onError: (error: unknown) => void) => EnginePort;

export interface NodeWorker {
  on(event: 'message', listener: (report: Report) => void): void;
  on(event: 'error' | 'exit', listener: (error: unknown) => void): void;
  once(event: 'exit', listener: () => void): void;
  postMessage(message: ToEngine): void;
  terminate(): Promise<number>;
}

interface NodeRuntime {
  getBuiltinModule?(id: string): unknown;
}

/** A Node built-in without importing it, so browser bundles never see `node:` imports. */
export function nodeBuiltin<T>(id: string): T | undefined {
  const runtime = (globalThis as { process?: NodeRuntime }).process;
  return typeof runtime?.getBuiltinModule === 'function' ? (runtime.getBuiltinModule(id) as T) : undefined;
}

let blobUrl: string | undefined;

/** A Blob worker's whole script: the engine, wired to the worker's global message functions. */
export const blobWorkerSource = () =>
  `var r=(${solver})().connect(function(m){postMessage(m)});onmessage=function(e){r(e.data)}`;

function browserWorkers(): Spawn | undefined {
  if (typeof Worker !== 'function') return undefined;
  return (onReport, onError) => {
    // Kept for the page's lifetime: later solves reuse it, and revoking it early can race the
    // worker's script fetch in some browsers.
    blobUrl ??= URL.createObjectURL(new Blob([blobWorkerSource()], { type: 'text/javascript' }));
    const worker = new Worker(blobUrl);
    worker.onmessage = (event: MessageEvent<Report>) => onReport(event.data);
    worker.onerror = onError;
    return { send: (message) => worker.postMessage(message), close: () => worker.terminate() };
  };
}

/** worker_threads in Node; `created` sees each worker (tests check that cancelling ends them). */
export function nodeWorkers(created?: (worker: NodeWorker) => void): Spawn | undefined {
  const threads = nodeBuiltin<{ Worker: new (code: string, options: { eval: true }) => NodeWorker }>(
    'node:worker_threads',
  );
  if (!threads) return undefined;
  const code = `var p=require('node:worker_threads').parentPort,r=(${solver})().connect(function(m){p.postMessage(m)});p.on('message',r)`;
  return (onReport, onError) => {
    const worker = new threads.Worker(code, { eval: true });
    created?.(worker);
    worker.on('message', onReport);
    worker.on('error', onError);
    worker.on('exit', () => onError(new Error('The solver worker exited.')));
    return { send: (message) => worker.postMessage(message), close: () => void worker.terminate() };
  };
}

/** Workers of this runtime: Blob workers in browsers, worker_threads in Node; none elsewhere. */
export function workerSpawn(): Spawn | undefined {
  return browserWorkers() ?? (WAITLIST_NODE ? nodeWorkers() : undefined);
}

/** The engine on the calling thread, slicing its work so the page stays responsive. */
export const mainThreadSpawn: Spawn = (onReport) => {
  const receive = solver().connect(onReport);
  return { send: receive, close: () => receive({ stop: true }) };
};

/** Cores to use: `hardwareConcurrency` (Node: `availableParallelism`), at most 8. */
export function defaultThreads(): number {
  const cores =
    (typeof navigator !== 'undefined' && navigator.hardwareConcurrency) ||
    (WAITLIST_NODE &&
      nodeBuiltin<{ availableParallelism?(): number }>('node:os')?.availableParallelism?.()) ||
    2;
  return Math.max(1, Math.min(8, cores));
}
