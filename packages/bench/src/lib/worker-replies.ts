/**
 * A benchmark's helper thread (the SMTP sink, the webhook receiver) spoken to in turns: every
 * message posted gets the thread's next reply, in order, and its first reply, unasked, is where it
 * listens. A thread that fails rejects every reply awaited then and every one asked after.
 */
import { Worker } from 'node:worker_threads';
import { distFile } from './paths.js';

export interface HelperThread<M, R> {
  /** The thread's next reply: first, where it listens. */
  next(): Promise<R>;
  /** Posts `message`; resolves to its reply. */
  ask(message: M): Promise<R>;
  /** Posts `message` (its stop); resolves once the thread has exited. */
  end(message: M): Promise<void>;
}

/** Starts the thread built from `threads/<name>.ts`. */
export function helperThread<M, R>(name: 'smtp-sink' | 'webhook-receiver'): HelperThread<M, R> {
  const worker = new Worker(distFile(name));
  const replies: { resolve(reply: R): void; reject(error: Error): void }[] = [];
  let failed: Error | undefined;
  worker.on('message', (m: R) => replies.shift()?.resolve(m));
  worker.on('error', (error) => {
    failed = error;
    for (const r of replies.splice(0)) r.reject(error);
  });
  const next = () =>
    failed ? Promise.reject(failed) : new Promise<R>((resolve, reject) => replies.push({ resolve, reject }));
  return {
    next,
    ask(message) {
      const reply = next();
      worker.postMessage(message);
      return reply;
    },
    async end(message) {
      const exited = new Promise((resolve) => worker.once('exit', resolve));
      worker.postMessage(message);
      await exited;
    },
  };
}
