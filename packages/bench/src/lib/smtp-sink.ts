/**
 * Item 4f's mail sink: testkit's SMTP server on loopback (smtp-server, every mail parsed with
 * mailparser, as the tests receive mail), in a worker thread (threads/smtp-sink.ts), so its work
 * never waits behind the benchmark's main thread and the main thread's polls never wait behind it.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import { distFile } from './paths.js';

/** One received mail, as far as the benchmark checks it. */
export interface MailSummary {
  to: string[];
  subject: string;
  listUnsubscribe: boolean;
}

/** The mails received so far, and the first of them. */
export interface SinkCount {
  received: number;
  first?: MailSummary;
}

export type SinkMessage = 'count' | 'stop';
export type SinkReply = { url: string } | SinkCount;

export interface SmtpSink {
  /** For WAITLIST_SMTP_URL. */
  url: string;
  count(): Promise<SinkCount>;
  stop(): Promise<void>;
}

export async function startSmtpSink(): Promise<SmtpSink> {
  const worker = new Worker(distFile('smtp-sink'));
  const replies: { resolve(reply: SinkReply): void; reject(error: Error): void }[] = [];
  let failed: Error | undefined;
  worker.on('message', (m: SinkReply) => replies.shift()?.resolve(m));
  worker.on('error', (error) => {
    failed = error;
    for (const r of replies.splice(0)) r.reject(error);
  });
  const next = () =>
    failed
      ? Promise.reject(failed)
      : new Promise<SinkReply>((resolve, reject) => {
          replies.push({ resolve, reject });
        });
  const started = await next();
  if (!('url' in started)) throw new Error('the SMTP sink did not say its address');
  return {
    url: started.url,
    async count() {
      const reply = next();
      worker.postMessage('count' satisfies SinkMessage);
      const counted = await reply;
      if ('url' in counted) throw new Error('the SMTP sink answered out of turn');
      return counted;
    },
    async stop() {
      const exited = new Promise((resolve) => worker.once('exit', resolve));
      worker.postMessage('stop' satisfies SinkMessage);
      await exited;
    },
  };
}

/**
 * Waits until the sink has received `expected` mails in all; resolves to the milliseconds that
 * took. Fails when mails are missing and none arrived for `stallMs`, however long a backlog takes
 * to drain while it keeps draining.
 */
export async function drained(sink: SmtpSink, expected: number, stallMs = 30_000): Promise<number> {
  const started = performance.now();
  let last = await sink.count();
  let progressAt = started;
  while (last.received < expected) {
    if (performance.now() - progressAt > stallMs) {
      throw new Error(
        `the SMTP sink has ${last.received} mails of ${expected}; none came for ${stallMs / 1000} s`,
      );
    }
    await sleep(50);
    const now = await sink.count();
    if (now.received > last.received) progressAt = performance.now();
    last = now;
  }
  if (last.received > expected)
    throw new Error(`the SMTP sink has ${last.received} mails, expected ${expected}`);
  return performance.now() - started;
}
