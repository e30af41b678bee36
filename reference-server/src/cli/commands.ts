/**
 * The command table of operations.md: names, options and help. What each command does lives in
 * the use cases of app/; `run` only translates parsed options into a use case call.
 */
import { ADMISSION_MAX, KEY_PRESETS, type KeyPreset, PLANS, type Plan } from '@waitlistkit/protocol';
import { systemClock } from '../adapters/clock.js';
import { Operators } from '../app/operators.js';
import { backup, openStore, webhookPolicy } from '../container.js';
import type { Admission, Role, WebhookEndpoint } from '../domain/records.js';
import { SETTING_FIELDS } from '../domain/setting-fields.js';
import type { SettingsPatch } from '../domain/settings.js';
import { serve } from '../serve.js';
import { type OptionSpec, type ParsedOptions, UsageError } from './options.js';
import { keyJson, printItems, waitlistJson } from './output.js';

export interface CommandContext {
  /** Path of the SQLite file. */
  db: string;
  env: Record<string, string | undefined>;
  /** Where `serve` writes its logs and the demo's one-time credentials. */
  stdout: (text: string) => void;
}

export interface Command {
  name: string;
  summary: string;
  options: OptionSpec[];
  /**
   * Resolves to the JSON object to print on stdout, or to undefined when the command printed its
   * output itself (`serve`, which resolves when it has shut down; lists of any length).
   */
  run(options: ParsedOptions, context: CommandContext): Promise<unknown>;
}

const idOption = (name: string, what: string, prefix: string): OptionSpec => ({
  name,
  kind: 'string',
  placeholder: `${prefix}…`,
  required: true,
  maxLength: 64,
  description: `id of the ${what}`,
});

const planOption: OptionSpec = {
  name: 'plan',
  kind: 'enum',
  values: PLANS,
  required: true,
  description: 'plan: API access on pro and team only',
};

/** The settings options, made from the fields the dashboard's form is made from too. */
export const WAITLIST_SETTING_OPTIONS: OptionSpec[] = SETTING_FIELDS.map((field): OptionSpec => {
  const base = { name: field.key.replaceAll('_', '-'), description: field.help };
  switch (field.kind) {
    case 'switch':
      return { ...base, kind: 'switch' };
    case 'int':
      return { ...base, kind: 'int', min: field.min, max: field.max };
    default:
      return {
        ...base,
        description: field.key === 'origins' ? field.help : `${field.help} (an empty string clears)`,
        kind: 'list',
        placeholder: field.placeholder,
        item: field.item,
      };
  }
});

/** Runs `fn` with the operators' use cases on the command's database, closing it afterwards. */
async function withAdmin<T>(context: CommandContext, fn: (admin: Operators) => Promise<T>): Promise<T> {
  const store = await openStore(context.db, { oneShot: true });
  try {
    return await fn(new Operators(store, systemClock, webhookPolicy(context.env)));
  } finally {
    await store.close();
  }
}

const str = (o: ParsedOptions, name: string) => o[name] as string;
const optionalStr = (o: ParsedOptions, name: string) => o[name] as string | undefined;

/** `--pow-difficulty 20` → `{ pow_difficulty: 20 }`: setting names are the option names in snake case. */
function settingsPatch(options: ParsedOptions): SettingsPatch {
  const patch: Record<string, unknown> = {};
  for (const spec of WAITLIST_SETTING_OPTIONS) {
    if (options[spec.name] !== undefined) patch[spec.name.replaceAll('-', '_')] = options[spec.name];
  }
  return patch as SettingsPatch;
}

const tenantJson = (t: { id: string; name: string; plan: Plan }) => ({
  id: t.id,
  name: t.name,
  plan: t.plan,
});

const subscriberOptions: OptionSpec[] = [
  {
    name: 'id',
    kind: 'string',
    placeholder: 'SUB',
    maxLength: 64,
    description: 'id of the subscriber (sub_…)',
  },
  {
    name: 'email',
    kind: 'string',
    placeholder: 'EMAIL',
    maxLength: 254,
    description: 'email of the subscriber',
  },
];

/** `--id` or `--email`, exactly one. */
function subscriberBy(o: ParsedOptions): { id: string } | { email: string } {
  const id = optionalStr(o, 'id');
  const email = optionalStr(o, 'email');
  if ((id === undefined) === (email === undefined))
    throw new UsageError('Give exactly one of --id and --email.');
  return id !== undefined ? { id } : { email: email as string };
}

/** `--count` or `--ids`, exactly one. */
function admission(o: ParsedOptions): Admission {
  const count = o.count as number | undefined;
  const ids = o.ids as string[] | undefined;
  if ((count === undefined) === (ids === undefined))
    throw new UsageError('Give exactly one of --count and --ids.');
  if (ids !== undefined && ids.length === 0) throw new UsageError('--ids needs at least one subscriber id.');
  if (ids !== undefined && ids.length > ADMISSION_MAX)
    throw new UsageError(`--ids takes at most ${ADMISSION_MAX} ids.`);
  return count !== undefined ? { count } : { subscriberIds: ids as string[] };
}

const subscriberId = (value: string) => {
  if (!/^sub_[A-Za-z0-9]{1,60}$/.test(value))
    throw new Error(`${JSON.stringify(value)} is not a subscriber id (sub_…).`);
  return value;
};

/** What a webhook endpoint is shown as: never its secret. */
const webhookJson = (w: WebhookEndpoint) => ({
  id: w.id,
  url: w.url,
  events: w.events,
  waitlist_id: w.waitlist_id,
  state: w.state,
  created_at: w.created_at,
  deleted_at: w.deleted_at,
});

const eventType = (value: string) => value;

export const COMMANDS: Command[] = [
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
    run: (o, context) =>
      serve({
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
      return backup(context.db, str(o, 'to'));
    },
  },
  {
    name: 'tenant create',
    summary: 'create a tenant',
    options: [
      { name: 'name', kind: 'string', placeholder: 'NAME', required: true, description: 'display name' },
      planOption,
    ],
    run: (o, context) =>
      withAdmin(context, async (admin) =>
        tenantJson(await admin.createTenant(str(o, 'name'), str(o, 'plan') as Plan)),
      ),
  },
  {
    name: 'tenant set-plan',
    summary: "change a tenant's plan (takes effect on the next request)",
    options: [idOption('tenant', 'tenant', 'ten_'), planOption],
    run: (o, context) =>
      withAdmin(context, async (admin) =>
        tenantJson(await admin.setPlan(str(o, 'tenant'), str(o, 'plan') as Plan)),
      ),
  },
  {
    name: 'operator create',
    summary: 'create an operator (dashboard account) of a tenant',
    options: [
      idOption('tenant', 'tenant', 'ten_'),
      {
        name: 'email',
        kind: 'string',
        placeholder: 'EMAIL',
        required: true,
        maxLength: 254,
        description: 'sign-in email',
      },
      {
        name: 'role',
        kind: 'enum',
        values: ['admin', 'member'],
        required: true,
        description: 'admin or member',
      },
      {
        name: 'password',
        kind: 'string',
        placeholder: 'P',
        maxLength: 1024,
        description: 'sign-in password (generated and printed when omitted)',
      },
    ],
    run: (o, context) =>
      withAdmin(context, async (admin) => {
        const { operator, password } = await admin.createOperator({
          tenantId: str(o, 'tenant'),
          email: str(o, 'email'),
          role: str(o, 'role') as Role,
          password: optionalStr(o, 'password'),
        });
        const shown = {
          id: operator.id,
          tenant_id: operator.tenant_id,
          email: operator.email,
          role: operator.role,
        };
        return password === undefined ? shown : { ...shown, password };
      }),
  },
  {
    name: 'waitlist create',
    summary: 'create a waitlist',
    options: [
      idOption('tenant', 'tenant', 'ten_'),
      { name: 'name', kind: 'string', placeholder: 'NAME', required: true, description: 'display name' },
      ...WAITLIST_SETTING_OPTIONS,
    ],
    run: (o, context) =>
      withAdmin(context, async (admin) =>
        waitlistJson(await admin.createWaitlist(str(o, 'tenant'), str(o, 'name'), settingsPatch(o))),
      ),
  },
  {
    name: 'waitlist update',
    summary: "change a waitlist's settings",
    options: [
      idOption('waitlist', 'waitlist', 'wl_'),
      { name: 'name', kind: 'string', placeholder: 'NAME', description: 'display name' },
      ...WAITLIST_SETTING_OPTIONS,
    ],
    run: (o, context) =>
      withAdmin(context, async (admin) =>
        waitlistJson(
          await admin.updateWaitlist(str(o, 'waitlist'), {
            name: optionalStr(o, 'name'),
            patch: settingsPatch(o),
          }),
        ),
      ),
  },
  {
    name: 'waitlist archive',
    summary: 'archive a waitlist (both APIs answer 404 for it afterwards)',
    options: [idOption('waitlist', 'waitlist', 'wl_')],
    run: (o, context) =>
      withAdmin(context, async (admin) =>
        waitlistJson(await admin.updateWaitlist(str(o, 'waitlist'), { archive: true })),
      ),
  },
  {
    name: 'key create',
    summary: 'create an API key as an admin operator; prints its value, the only time it is shown',
    options: [
      idOption('operator', 'operator acting', 'op_'),
      {
        name: 'name',
        kind: 'string',
        placeholder: 'NAME',
        required: true,
        description: 'display name of the key',
      },
      {
        name: 'preset',
        kind: 'enum',
        values: Object.keys(KEY_PRESETS),
        required: true,
        description: 'full (read and write) or read-only',
      },
    ],
    run: (o, context) =>
      withAdmin(context, async (admin) => {
        const { key, value } = await admin.createKey(
          str(o, 'operator'),
          str(o, 'name'),
          str(o, 'preset') as KeyPreset,
        );
        return { ...keyJson(key), value };
      }),
  },
  {
    name: 'key revoke',
    summary: 'revoke an API key as an admin operator (immediate)',
    options: [idOption('operator', 'operator acting', 'op_'), idOption('key', 'key', 'key_')],
    run: (o, context) =>
      withAdmin(context, async (admin) => keyJson(await admin.revokeKey(str(o, 'operator'), str(o, 'key')))),
  },
  {
    name: 'key list',
    summary: "list a tenant's keys (never their values)",
    options: [idOption('tenant', 'tenant', 'ten_')],
    run: (o, context) =>
      withAdmin(context, async (admin) => ({ items: (await admin.listKeys(str(o, 'tenant'))).map(keyJson) })),
  },
  {
    name: 'activity',
    summary: "a tenant's activity log, newest first",
    options: [idOption('tenant', 'tenant', 'ten_')],
    run: (o, context) =>
      withAdmin(context, async (admin) =>
        printItems(context.stdout, await admin.activityPages(str(o, 'tenant'))),
      ),
  },
  {
    name: 'subscriber get',
    summary: 'everything held about a subscriber (for an access request)',
    options: [idOption('waitlist', 'waitlist', 'wl_'), ...subscriberOptions],
    run: (o, context) => withAdmin(context, (admin) => admin.subscriber(str(o, 'waitlist'), subscriberBy(o))),
  },
  {
    name: 'subscriber admit',
    summary: 'let subscribers in as an admin: the first N in line, or exactly these ids',
    options: [
      idOption('operator', 'operator acting', 'op_'),
      idOption('waitlist', 'waitlist', 'wl_'),
      {
        name: 'count',
        kind: 'int',
        min: 1,
        max: ADMISSION_MAX,
        description: 'admit the first N waiting, by position',
      },
      {
        name: 'ids',
        kind: 'list',
        placeholder: 'SUB,SUB…',
        item: subscriberId,
        description: 'admit exactly these',
      },
    ],
    run: (o, context) =>
      withAdmin(context, async (admin) => ({
        items: await admin.admit(str(o, 'operator'), str(o, 'waitlist'), admission(o)),
      })),
  },
  {
    name: 'subscriber delete',
    summary: 'erase a subscriber as an admin: the row, its email, codes and tokens',
    options: [
      idOption('operator', 'operator acting', 'op_'),
      idOption('waitlist', 'waitlist', 'wl_'),
      ...subscriberOptions,
    ],
    run: (o, context) =>
      withAdmin(context, async (admin) => ({
        deleted: await admin.erase(str(o, 'operator'), str(o, 'waitlist'), subscriberBy(o)),
      })),
  },
  {
    name: 'webhook create',
    summary: 'create a webhook endpoint as an admin; prints its secret, the only time it is shown',
    options: [
      idOption('operator', 'operator acting', 'op_'),
      {
        name: 'url',
        kind: 'string',
        placeholder: 'URL',
        required: true,
        maxLength: 2000,
        description: 'https URL to POST events to',
      },
      {
        name: 'events',
        kind: 'list',
        placeholder: 'a,b',
        item: eventType,
        description: 'event types to send (default: all)',
      },
      {
        name: 'waitlist',
        kind: 'string',
        placeholder: 'wl_…',
        maxLength: 64,
        description: 'only events of this waitlist',
      },
    ],
    run: (o, context) =>
      withAdmin(context, async (admin) => {
        const { endpoint, secret } = await admin.createWebhook(str(o, 'operator'), {
          url: str(o, 'url'),
          events: (o.events as string[] | undefined) ?? [],
          waitlistId: optionalStr(o, 'waitlist'),
        });
        return { ...webhookJson(endpoint), secret };
      }),
  },
  {
    name: 'webhook list',
    summary: "list a tenant's webhook endpoints (never their secrets)",
    options: [idOption('tenant', 'tenant', 'ten_')],
    run: (o, context) =>
      withAdmin(context, async (admin) => ({
        items: (await admin.listWebhooks(str(o, 'tenant'))).map(webhookJson),
      })),
  },
  {
    name: 'webhook delete',
    summary: 'delete a webhook endpoint as an admin (nothing more is sent to it)',
    options: [idOption('operator', 'operator acting', 'op_'), idOption('webhook', 'webhook endpoint', 'wh_')],
    run: (o, context) =>
      withAdmin(context, async (admin) =>
        webhookJson(await admin.deleteWebhook(str(o, 'operator'), str(o, 'webhook'))),
      ),
  },
  {
    name: 'webhook deliveries',
    summary: "an endpoint's deliveries with their attempts, newest first",
    options: [
      idOption('webhook', 'webhook endpoint', 'wh_'),
      {
        name: 'state',
        kind: 'enum',
        values: ['pending', 'failed', 'delivered'],
        description: 'only deliveries in this state',
      },
    ],
    run: (o, context) =>
      withAdmin(context, async (admin) => ({
        items: await admin.deliveries(str(o, 'webhook'), optionalStr(o, 'state')),
      })),
  },
  {
    name: 'webhook resend',
    summary: 'send a delivery again as an admin',
    options: [idOption('operator', 'operator acting', 'op_'), idOption('delivery', 'delivery', 'dlv_')],
    run: (o, context) => withAdmin(context, (admin) => admin.resend(str(o, 'operator'), str(o, 'delivery'))),
  },
];

export const DB_OPTION: OptionSpec = {
  name: 'db',
  kind: 'string',
  placeholder: 'PATH|URL',
  maxLength: 4096,
  description:
    'SQLite file, created when missing, or postgres://user@host/database for a PostgreSQL database that several servers share (env WAITLIST_DB, default ./data/waitlist.db)',
};
