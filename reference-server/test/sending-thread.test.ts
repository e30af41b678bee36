/**
 * The main thread's side of the sending thread (adapters/sending-thread.ts,
 * docs/webhooks.md#where-deliveries-run), over a stand-in thread that answers, hangs or crashes on
 * demand: results come back to their attempts, the thread's log lines reach the server's log, and
 * a thread that dies fails the attempts it had under way (so the outbox leaves them to their
 * leases) and is replaced by the next attempt. End to end, through the real thread, every webhook
 * and mail test of `serve` goes this way.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { tempDir } from '@waitlistkit/testkit';
import { afterAll, describe, expect, it } from 'vitest';
import type { Logger } from '../src/adapters/logger.js';
import { SendingThread } from '../src/adapters/sending-thread.js';

const dir = tempDir();
afterAll(() => dir.cleanup());

/** A thread that answers 204 and logs it, never answers `/hang`, and throws on `/crash`. */
const script = join(dir.dir, 'stand-in-thread.mjs');
writeFileSync(
  script,
  `import { parentPort, threadId } from 'node:worker_threads';
parentPort.on('message', ({ id, attempt }) => {
  if (attempt.url.endsWith('/crash')) throw new Error('crashed on purpose');
  if (attempt.url.endsWith('/hang')) return;
  parentPort.postMessage({ log: 'info', message: 'sent', fields: { url: attempt.url, thread: threadId } });
  parentPort.postMessage({ id, result: { status: 204 } });
});
`,
);

function recordingLog() {
  const lines: { level: string; message: string; fields: Record<string, unknown> | undefined }[] = [];
  const log: Logger = {
    request: () => undefined,
    info: (message, fields) => lines.push({ level: 'info', message, fields }),
    error: (message, fields) => lines.push({ level: 'error', message, fields }),
  };
  return { log, lines };
}

const settings = { allowPrivate: true, dnsServers: undefined, smtpUrl: undefined };
const send = (thread: SendingThread, path: string) =>
  thread.webhook.send(`http://127.0.0.1:9${path}`, {}, '{}', 1_000);

describe('the sending thread, seen from the main thread', () => {
  it('answers each attempt with its own result and writes the thread’s log lines to the server’s log', async () => {
    const { log, lines } = recordingLog();
    const thread = new SendingThread(settings, log, pathToFileURL(script));
    try {
      const results = await Promise.all([send(thread, '/a'), send(thread, '/b')]);
      expect(results).toEqual([{ status: 204 }, { status: 204 }]);
      expect(lines.map((l) => [l.level, l.message, l.fields?.url])).toEqual([
        ['info', 'sent', 'http://127.0.0.1:9/a'],
        ['info', 'sent', 'http://127.0.0.1:9/b'],
      ]);
    } finally {
      await thread.close();
    }
  });

  it('fails the attempts under way when the thread crashes, says so, and starts another for the next attempt', async () => {
    const { log, lines } = recordingLog();
    const thread = new SendingThread(settings, log, pathToFileURL(script));
    try {
      await send(thread, '/first');
      const hanging = send(thread, '/hang');
      const crashing = send(thread, '/crash');
      await expect(hanging).rejects.toThrow('the sending thread stopped during the attempt');
      await expect(crashing).rejects.toThrow('the sending thread stopped during the attempt');
      expect(lines.filter((l) => l.level === 'error')).toEqual([
        { level: 'error', message: 'the sending thread failed', fields: { error: 'crashed on purpose' } },
        {
          level: 'error',
          message: 'the sending thread stopped; the next attempt starts another',
          fields: { code: 1, attempts_to_retry: 2 },
        },
      ]);
      await expect(send(thread, '/after')).resolves.toEqual({ status: 204 });
      const threads = lines.filter((l) => l.message === 'sent').map((l) => l.fields?.thread);
      expect(threads).toHaveLength(2);
      expect(threads[1]).not.toBe(threads[0]);
    } finally {
      await thread.close();
    }
  });

  it('refuses attempts once closed', async () => {
    const { log, lines } = recordingLog();
    const thread = new SendingThread(settings, log, pathToFileURL(script));
    await send(thread, '/a');
    await thread.close();
    await expect(send(thread, '/b')).rejects.toThrow('the sending thread is closed');
    expect(lines.filter((l) => l.level === 'error')).toEqual([]);
  });
});
