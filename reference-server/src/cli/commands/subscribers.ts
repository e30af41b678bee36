/** A subscriber for an access request, and letting people in or erasing them as an operator (docs/subscribers.md#lifecycle). */
import { ADMISSION_MAX } from '@waitlistkit/protocol';
import type { SubscriberRef } from '../../app/subscribers.js';
import type { Admission } from '../../domain/records.js';
import { asOperator, type Command, idOption, inScope, optionalStr, shown, str } from '../command.js';
import { type OptionSpec, type ParsedOptions, UsageError } from '../options.js';

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
function subscriberBy(o: ParsedOptions): SubscriberRef {
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

export const SUBSCRIBER_COMMANDS: Command[] = [
  {
    name: 'subscriber get',
    summary: 'everything held about a subscriber (for an access request)',
    options: [idOption('waitlist', 'waitlist', 'wl_'), ...subscriberOptions],
    run: (o, context) => {
      const by = subscriberBy(o);
      return inScope({ waitlist: str(o, 'waitlist') }, context, async ({ subscribers }, scope) =>
        shown(await subscribers.get(scope, str(o, 'waitlist'), by), ({ subscriber }) => subscriber),
      );
    },
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
    run: (o, context) => {
      const admitted = admission(o);
      return asOperator(o, context, async ({ subscribers }, who) =>
        shown(await subscribers.admit(who, str(o, 'waitlist'), admitted), (items) => ({ items })),
      );
    },
  },
  {
    name: 'subscriber delete',
    summary: 'erase a subscriber as an admin: the row, its email, codes and tokens',
    options: [
      idOption('operator', 'operator acting', 'op_'),
      idOption('waitlist', 'waitlist', 'wl_'),
      ...subscriberOptions,
    ],
    run: (o, context) => {
      const by = subscriberBy(o);
      return asOperator(o, context, async ({ subscribers }, who) =>
        shown(await subscribers.erase(who, str(o, 'waitlist'), by), (deleted) => ({ deleted })),
      );
    },
  },
];
