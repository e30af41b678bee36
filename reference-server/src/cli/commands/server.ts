/** The server itself, and a copy of its SQLite database while it runs. */
import { ok } from '../../app/refusal.js';
import { backup } from '../../container.js';
import { serve } from '../../serve.js';
import { type Command, optionalStr, str } from '../command.js';
import { UsageError } from '../options.js';

export const SERVER_COMMANDS: Command[] = [
  {
    name: 'serve',
    summary: 'run the HTTP server until SIGINT/SIGTERM',
    options: [
      {
        name: 'port',
        kind: 'int',
        min: 0,
        max: 65_535,
        description: 'port to listen on (env PORT, default 8787)',
      },
      {
        name: 'host',
        kind: 'string',
        placeholder: 'H',
        description: 'address to listen on (env HOST, default 127.0.0.1)',
      },
      { name: 'base-url', kind: 'url', description: 'public address of the API (env BASE_URL)' },
      { name: 'app-url', kind: 'url', description: 'public address of the status pages (env APP_URL)' },
      { name: 'trust-proxy', kind: 'flag', description: 'take the client address from X-Forwarded-For' },
      {
        name: 'demo',
        kind: 'flag',
        description: 'on an empty database, create a demo tenant, admin, waitlist and key, and print them',
      },
    ],
    run: async (o, context) =>
      ok(
        await serve({
          db: context.db,
          port: o.port as number | undefined,
          host: optionalStr(o, 'host'),
          baseUrl: optionalStr(o, 'base-url'),
          appUrl: optionalStr(o, 'app-url'),
          trustProxy: o['trust-proxy'] === true,
          demo: o.demo === true,
          env: context.env,
          stdout: context.stdout,
        }),
      ),
  },
  {
    name: 'backup',
    summary: 'write a consistent copy of the database to a new file, also while serve runs',
    options: [
      {
        name: 'to',
        kind: 'string',
        placeholder: 'FILE',
        required: true,
        maxLength: 4096,
        description: 'the copy: a new file (never overwritten) in an existing directory',
      },
    ],
    run: async (o, context) => {
      if (/^postgres(ql)?:\/\//i.test(context.db)) {
        throw new UsageError('backup copies a SQLite database; for PostgreSQL use pg_dump.');
      }
      return ok(await backup(context.db, str(o, 'to')));
    },
  },
];
