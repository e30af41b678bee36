/**
 * A waitlist's messages (docs/command-line.md#messages): set one as an admin operator, show one
 * with its preview. A template the waitlist cannot send is a usage error naming its option.
 */
import { LANGUAGES, type Language } from '@waitlistkit/protocol';
import type { Result } from '../../app/refusal.js';
import { MESSAGE_KINDS, type MessageKind } from '../../domain/messages.js';
import { readBodyFile } from '../body-file.js';
import { asOperator, type Command, idOption, inScope, str } from '../command.js';
import { type OptionSpec, type ParsedOptions, UsageError } from '../options.js';

const KIND_OPTION: OptionSpec = {
  name: 'kind',
  kind: 'enum',
  values: MESSAGE_KINDS,
  required: true,
  description: 'which message',
};

/** A version in one language (docs/messages.md#languages): a supported tag exactly, as `--default-lang`. */
const LANG_OPTION: OptionSpec = {
  name: 'lang',
  kind: 'enum',
  values: LANGUAGES,
  placeholder: 'TAG',
  description: "the version in this language (default: the waitlist's own, for every language)",
};

const langOf = (o: ParsedOptions): Language | undefined =>
  o.lang === undefined ? undefined : (str(o, 'lang') as Language);

/** `--on`, `--off`, or neither (the message keeps its state; a new one is off). */
function enabledOf(o: ParsedOptions): boolean | undefined {
  if (o.on && o.off) throw new UsageError('--on and --off cannot both be given.');
  return o.on ? true : o.off ? false : undefined;
}

/** A template refused by the use case is the option's fault: a usage error naming it. */
function asUsage<T>(result: Result<T>): Result<T> {
  if (result.ok || result.refusal.code !== 'invalid_request') return result;
  const option = result.refusal.field === 'subject' ? '--subject' : '--body-file';
  throw new UsageError(`${option}: ${result.refusal.message}`);
}

export const MESSAGE_COMMANDS: Command[] = [
  {
    name: 'message set',
    summary:
      "save one of a waitlist's messages, or its version in a language, as an admin; prints it with its preview",
    options: [
      idOption('operator', 'operator acting', 'op_'),
      idOption('waitlist', 'waitlist', 'wl_'),
      KIND_OPTION,
      LANG_OPTION,
      {
        name: 'subject',
        kind: 'string',
        placeholder: 'S',
        required: true,
        maxLength: 1000,
        description: 'the subject, one line of at most 150 characters, merge tags allowed',
      },
      {
        name: 'body-file',
        kind: 'string',
        placeholder: 'F',
        required: true,
        maxLength: 4096,
        description: 'a text file with the body, at most 5,000 characters, merge tags allowed',
      },
      { name: 'on', kind: 'flag', description: 'send it from now on' },
      { name: 'off', kind: 'flag', description: 'stop sending it (a new message is off)' },
    ],
    run: (o, context) => {
      const change = {
        subject: str(o, 'subject'),
        body: readBodyFile(str(o, 'body-file')),
        enabled: enabledOf(o),
      };
      return asOperator(o, context, async ({ messages }, who) =>
        asUsage(
          await messages.set(who, str(o, 'waitlist'), str(o, 'kind') as MessageKind, change, langOf(o)),
        ),
      );
    },
  },
  {
    name: 'message show',
    summary: "one of a waitlist's messages and its preview for a sample subscriber",
    options: [
      idOption('waitlist', 'waitlist', 'wl_'),
      KIND_OPTION,
      { ...LANG_OPTION, description: 'what a subscriber in this language gets: its version, or the default' },
    ],
    run: (o, context) =>
      inScope({ waitlist: str(o, 'waitlist') }, context, ({ messages }, scope) =>
        messages.show(scope, str(o, 'waitlist'), str(o, 'kind') as MessageKind, langOf(o)),
      ),
  },
];
