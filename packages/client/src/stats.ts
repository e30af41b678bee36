/** `client.stats`: how the launch is going over a range of UTC days (docs/insights.md#stats). */
import {
  describeIssue,
  type Stats,
  type StatsQuery,
  StatsQuerySchema,
  StatsSchema,
} from '@waitlistkit/protocol';
import { checkArguments, type Signature } from './arguments.js';
import { withInfo } from './result.js';
import { type WithResponseInfo, waitlistPath } from './subscribers.js';
import type { Transport } from './transport.js';
import type { RequestOptions } from './types.js';

/**
 * `from` and `to`, UTC days written `YYYY-MM-DD`, both included: by default the 30 days up to
 * `to`, which is today by default. The service answers at most 366 days.
 */
export type StatsParams = StatsQuery;
export type StatsResult = WithResponseInfo<Stats>;

const STATS: Signature = { method: 'stats', area: 'client', params: Object.keys(StatsQuerySchema.shape) };

export async function readStats(
  transport: Transport,
  waitlistId: string,
  params: StatsParams,
  options: RequestOptions | undefined,
): Promise<StatsResult> {
  const path = `${waitlistPath('client.stats', waitlistId)}/stats`;
  checkArguments(STATS, params, options);
  const query = StatsQuerySchema.safeParse(params, { reportInput: true });
  if (!query.success) {
    const issue = query.error.issues[0];
    throw new TypeError(`client.stats: ${issue ? describeIssue(issue) : 'invalid argument.'}`);
  }
  const searchParams: Record<string, string> = {};
  for (const [name, value] of Object.entries(query.data)) if (value !== undefined) searchParams[name] = value;
  const { data, rateLimit, requestId } = await transport.request(
    { method: 'get', path, searchParams, schema: StatsSchema, label: 'Stats' },
    options,
  );
  return withInfo(data, { rateLimit, requestId });
}
