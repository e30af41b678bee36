/**
 * The command table of docs/command-line.md#commands, by area (commands/*): names, options and help. What each
 * command does lives in the use cases of app/.
 */
import type { Command } from './command.js';
import { IMPORT_COMMANDS } from './commands/import.js';
import { KEY_COMMANDS } from './commands/keys.js';
import { MESSAGE_COMMANDS } from './commands/messages.js';
import { SERVER_COMMANDS } from './commands/server.js';
import { STATS_COMMANDS } from './commands/stats.js';
import { SUBSCRIBER_COMMANDS } from './commands/subscribers.js';
import { TENANT_COMMANDS } from './commands/tenants.js';
import { WAITLIST_COMMANDS } from './commands/waitlists.js';
import { WEBHOOK_COMMANDS } from './commands/webhooks.js';
import type { OptionSpec } from './options.js';

/** In the order of docs/command-line.md#commands, which is the order of the help. */
export const COMMANDS: Command[] = [
  ...SERVER_COMMANDS,
  ...TENANT_COMMANDS,
  ...WAITLIST_COMMANDS,
  ...KEY_COMMANDS,
  ...SUBSCRIBER_COMMANDS,
  ...IMPORT_COMMANDS,
  ...STATS_COMMANDS,
  ...WEBHOOK_COMMANDS,
  ...MESSAGE_COMMANDS,
];

export const DB_OPTION: OptionSpec = {
  name: 'db',
  kind: 'string',
  placeholder: 'PATH|URL',
  maxLength: 4096,
  description:
    'SQLite file, created when missing, or postgres://user@host/database for a PostgreSQL database that several servers share (env WAITLIST_DB, default ./data/waitlist.db)',
};
