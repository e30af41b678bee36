/**
 * `subscriber import` and `subscriber export` (docs/command-line.md#moving-a-list): a list in from
 * a CSV file, with a progress bar on stderr when it is a terminal, and out to one.
 */
import { closeSync, createReadStream, existsSync, openSync, statSync, writeSync } from 'node:fs';
import { resolve } from 'node:path';
import { Transform } from 'node:stream';
import { SubscriberStatus } from '@waitlistkit/protocol';
import { SingleBar } from 'cli-progress';
import { exportList } from '../../app/export.js';
import { actingAs, scopeOf } from '../../app/guard.js';
import { importList } from '../../app/import.js';
import { type Command, idOption, optionalStr, shown, str, withServices } from '../command.js';
import { UsageError } from '../options.js';

const fileOption = (name: string, description: string) => ({
  name,
  kind: 'string' as const,
  placeholder: 'F.csv',
  required: true,
  maxLength: 4096,
  description,
});

/** The file's bytes, counted into a progress bar when stderr is a terminal; nothing drawn otherwise. */
function withProgress(path: string): { stream: NodeJS.ReadableStream; done: () => void } {
  const file = createReadStream(path);
  if (!process.stderr.isTTY) return { stream: file, done: () => undefined };
  const bar = new SingleBar({
    stream: process.stderr,
    format: 'importing [{bar}] {percentage}% | {value}/{total} bytes',
    hideCursor: true,
  });
  bar.start(statSync(path).size, 0);
  let read = 0;
  const counted = file.pipe(
    new Transform({
      transform(chunk: Buffer, _encoding, next) {
        read += chunk.length;
        bar.update(read);
        next(null, chunk);
      },
    }),
  );
  file.on('error', (error) => counted.destroy(error));
  return { stream: counted, done: () => bar.stop() };
}

export const IMPORT_COMMANDS: Command[] = [
  {
    name: 'subscriber import',
    summary: 'import a CSV file of subscribers as an admin, in one transaction (docs/moving-a-list.md)',
    options: [
      idOption('operator', 'operator acting', 'op_'),
      idOption('waitlist', 'waitlist', 'wl_'),
      fileOption('file', 'the CSV file (UTF-8, a header row with an email column)'),
      { name: 'dry-run', kind: 'flag', description: 'check and count, import nothing' },
      { name: 'skip-invalid', kind: 'flag', description: 'import the valid rows even when some are invalid' },
      {
        name: 'send-events',
        kind: 'flag',
        description: 'send webhooks and mail for the imported subscribers',
      },
    ],
    run: (o, context) => {
      const path = resolve(str(o, 'file'));
      if (!existsSync(path) || !statSync(path).isFile())
        throw new UsageError(`--file ${path} is not a file.`);
      return withServices(context, async (_services, base) => {
        const who = await actingAs(base, str(o, 'operator'));
        if (!who.ok) return who;
        const { stream, done } = withProgress(path);
        try {
          return await importList(base, who.value, {
            waitlistId: str(o, 'waitlist'),
            file: stream as AsyncIterable<Buffer>,
            dryRun: o['dry-run'] === true,
            skipInvalid: o['skip-invalid'] === true,
            sendEvents: o['send-events'] === true,
          });
        } finally {
          done();
        }
      });
    },
  },
  {
    name: 'subscriber export',
    summary: 'write the waitlist’s subscribers to a CSV file that `subscriber import` reads back',
    options: [
      idOption('waitlist', 'waitlist', 'wl_'),
      {
        name: 'status',
        kind: 'enum',
        values: [SubscriberStatus.waiting, SubscriberStatus.admitted],
        description: 'only these (default: everyone, the line first)',
      },
      fileOption('to', 'the CSV file to write (replaced when it exists)'),
    ],
    run: (o, context) => {
      const path = resolve(str(o, 'to'));
      const status = optionalStr(o, 'status');
      return withServices(context, async (_services, base) => {
        const scope = await scopeOf(base, { waitlist: str(o, 'waitlist') });
        if (!scope.ok) return scope;
        const fd = openSync(path, 'w', 0o600);
        try {
          const done = await exportList(base, scope.value, {
            waitlistId: str(o, 'waitlist'),
            ...(status === SubscriberStatus.waiting || status === SubscriberStatus.admitted
              ? { status }
              : {}),
            write: (text) => {
              writeSync(fd, text);
            },
          });
          return shown(done, ({ rows }) => ({ path, rows }));
        } finally {
          closeSync(fd);
        }
      });
    },
  },
];
