/**
 * `subscriber export` (docs/moving-a-list.md#the-export): the import's columns and the line's,
 * read in one snapshot, a thousand rows at a time, so a million rows stream in flat memory and an
 * export imported into an empty waitlist gives the same line.
 */
import { type FieldDefinition, SOURCE_KEYS, SubscriberStatus } from '@waitlistkit/protocol';
import { csvRow } from '../domain/csv-cells.js';
import { EXPORT_ONLY_COLUMNS } from '../domain/import-row.js';
import type { ListedSubscriber } from '../domain/records.js';
import { type Base, own, type Scope } from './guard.js';
import { notFound, ok, type Result, refuse } from './refusal.js';

/** The import's columns, one per field of the waitlist (`fields.<key>`), and what an export adds. */
export const exportColumns = (fields: readonly FieldDefinition[]): string[] => [
  'email',
  'joined_at',
  'referred_by',
  'confirmed',
  'lang',
  ...SOURCE_KEYS,
  ...fields.map((f) => `fields.${f.key}`),
  ...EXPORT_ONLY_COLUMNS,
];

const PAGE = 1000;

export interface ExportRequest {
  waitlistId: string;
  /** Everyone when undefined: the line in position order, then those let in. */
  status?: SubscriberStatus;
  /** Only those whose address contains this (the list's `q`). */
  q?: string;
  /** Takes each chunk of CSV text as it is made. */
  write: (text: string) => void;
}

function cells(columns: readonly string[], s: ListedSubscriber, referrer: string | undefined): string[] {
  const byColumn: Record<string, string | number | boolean | undefined> = {
    ...s.source,
    ...Object.fromEntries(Object.entries(s.fields).map(([k, v]) => [`fields.${k}`, v])),
    channel: s.channel,
    email: s.email,
    joined_at: s.joined_at,
    referred_by: referrer ?? '',
    confirmed: String(s.confirmed),
    lang: s.lang ?? '',
    id: s.id,
    position: s.position ?? '',
    status: s.status,
    referral_code: s.referral_code,
    referral_count: s.referral_count,
    admitted_at: s.admitted_at ?? '',
  };
  return columns.map((c) => String(byColumn[c] ?? ''));
}

export function exportList(
  ctx: Base,
  scope: Scope,
  request: ExportRequest,
): Promise<Result<{ rows: number }>> {
  return ctx.store.read(async (tx) => {
    const waitlist = own(scope, await tx.waitlists.get(request.waitlistId));
    if (!waitlist) return refuse(notFound('waitlist', request.waitlistId));
    const columns = exportColumns(waitlist.settings.fields);
    request.write(csvRow(columns));
    let rows = 0;
    const statuses = request.status
      ? [request.status]
      : [SubscriberStatus.waiting, SubscriberStatus.admitted];
    for (const status of statuses) {
      for (let page = 1; ; page++) {
        const { items } = await tx.subscribers.list(waitlist.id, waitlist.settings, {
          page,
          limit: PAGE,
          q: '',
          status,
        });
        const referrers = await tx.subscribers.referrerEmails(
          waitlist.id,
          items.map((s) => s.id),
        );
        request.write(items.map((s) => csvRow(cells(columns, s, referrers.get(s.id)))).join(''));
        rows += items.length;
        if (items.length < PAGE) break;
      }
    }
    return ok({ rows });
  });
}
