import type { Command } from './command.js';
import { type OptionSpec, placeholder } from './options.js';

const PROGRAM = 'waitlist-server';

function optionLine(spec: OptionSpec): string {
  const value = placeholder(spec);
  const usage = `--${spec.name}${value ? ` ${value}` : ''}`;
  return `  ${usage.padEnd(44)} ${spec.required ? '(required) ' : ''}${spec.description}`;
}

export function commandHelp(command: Command, common: OptionSpec[]): string {
  return [
    `Usage: ${PROGRAM} ${command.name} [options]`,
    '',
    `${command.summary[0]?.toUpperCase()}${command.summary.slice(1)}.`,
    '',
    'Options:',
    ...command.options.map(optionLine),
    ...common.map(optionLine),
    `  ${'--help'.padEnd(44)} show this help`,
    '',
  ].join('\n');
}

export function programHelp(commands: Command[]): string {
  return [
    `Usage: ${PROGRAM} <command> [options]`,
    '',
    'Reference server of the waitlist service, and its operator command line.',
    'Every command but serve prints one JSON object on stdout; errors go to stderr as',
    '{"error":{"code","message"}} with exit code 2 (usage) or 1.',
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.name.padEnd(18)} ${c.summary}`),
    '',
    `Run "${PROGRAM} <command> --help" for the options of a command.`,
    '',
  ].join('\n');
}
