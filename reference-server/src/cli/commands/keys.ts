/** API keys, created and revoked as an operator, and the activity log that records them. */
import { KEY_PRESETS, type KeyPreset } from '@waitlistkit/protocol';
import { ok } from '../../app/refusal.js';
import { asOperator, type Command, idOption, inScope, shown, str } from '../command.js';
import { keyJson, printItems } from '../output.js';

export const KEY_COMMANDS: Command[] = [
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
      asOperator(o, context, async ({ keys }, who) =>
        shown(await keys.create(who, str(o, 'name'), str(o, 'preset') as KeyPreset), ({ key, value }) => ({
          ...keyJson(key),
          value,
        })),
      ),
  },
  {
    name: 'key revoke',
    summary: 'revoke an API key as an admin operator (immediate)',
    options: [idOption('operator', 'operator acting', 'op_'), idOption('key', 'key', 'key_')],
    run: (o, context) =>
      asOperator(o, context, async ({ keys }, who) => shown(await keys.revoke(who, str(o, 'key')), keyJson)),
  },
  {
    name: 'key list',
    summary: "list a tenant's keys (never their values)",
    options: [idOption('tenant', 'tenant', 'ten_')],
    run: (o, context) =>
      inScope({ tenant: str(o, 'tenant') }, context, async ({ keys }, scope) =>
        shown(await keys.list(scope), (listed) => ({ items: listed.keys.map(keyJson) })),
      ),
  },
  {
    name: 'activity',
    summary: "a tenant's activity log, newest first",
    options: [idOption('tenant', 'tenant', 'ten_')],
    run: (o, context) =>
      inScope({ tenant: str(o, 'tenant') }, context, async ({ activity }, scope) =>
        ok(await printItems(context.stdout, activity.pages(scope))),
      ),
  },
];
