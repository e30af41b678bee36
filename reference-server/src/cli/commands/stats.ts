/** The launch's figures, as the stats endpoint answers them (docs/insights.md#stats). */
import { type Command, idOption, inScope, optionalStr, str } from '../command.js';
import type { OptionSpec } from '../options.js';

const day = (name: 'from' | 'to', description: string): OptionSpec => ({
  name,
  kind: 'string',
  placeholder: 'YYYY-MM-DD',
  maxLength: 10,
  description,
});

export const STATS_COMMANDS: Command[] = [
  {
    name: 'stats',
    summary: 'views, sign-ups, confirmations, referrals and admissions per day, channels and totals',
    options: [
      idOption('waitlist', 'waitlist', 'wl_'),
      day('from', 'first UTC day, included (default: the 30 days up to --to)'),
      day('to', 'last UTC day, included (default: today)'),
    ],
    run: (o, context) =>
      inScope({ waitlist: str(o, 'waitlist') }, context, ({ insights }, scope) =>
        insights.stats(scope, str(o, 'waitlist'), { from: optionalStr(o, 'from'), to: optionalStr(o, 'to') }),
      ),
  },
];
