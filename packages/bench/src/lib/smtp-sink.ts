/**
 * Item 4f's mail sink: testkit's SMTP server on loopback (smtp-server, every mail parsed with
 * mailparser, as the tests receive mail), in a worker thread (threads/smtp-sink.ts), so its work
 * never waits behind the benchmark's main thread and the main thread's polls never wait behind it.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { helperThread } from './worker-replies.js';

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
  const thread = helperThread<SinkMessage, SinkReply>('smtp-sink');
  const started = await thread.next();
  if (!('url' in started)) throw new Error('the SMTP sink did not say its address');
  return {
    url: started.url,
    async count() {
      const counted = await thread.ask('count');
      if ('url' in counted) throw new Error('the SMTP sink answered out of turn');
      return counted;
    },
    stop: () => thread.end('stop'),
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
