/**
 * What the server's main thread and its sending thread (adapters/sending-thread.ts,
 * sending-thread.ts) say to each other: an attempt to make, its result, and the thread's log
 * lines, which the main thread writes (docs/webhooks.md#where-deliveries-run).
 */
import type { Mail, MailResult } from './mailer.js';
import type { SendResult } from './webhook-sender.js';

/** What the thread is started with: all it needs to build its sender and its SMTP transport. */
export interface SendingSettings {
  /** WAITLIST_WEBHOOK_ALLOW_PRIVATE. */
  allowPrivate: boolean;
  /** WAITLIST_DNS_SERVERS as given (checked by the main thread before it starts). */
  dnsServers: string | undefined;
  /** WAITLIST_SMTP_URL, when mail is sent. */
  smtpUrl: string | undefined;
}

export type Attempt =
  | { kind: 'webhook'; url: string; headers: Record<string, string>; body: string; timeoutMs: number }
  | { kind: 'mail'; mail: Mail };

/** To the thread: one attempt, numbered so its result finds its way back. */
export type ToThread = { id: number; attempt: Attempt };

/** From the thread: an attempt's result, or a line for the server's log. */
export type FromThread =
  | { id: number; result: SendResult | MailResult }
  | { log: 'info' | 'error'; message: string; fields: Record<string, unknown> | undefined };
