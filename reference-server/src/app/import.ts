/**
 * Moving a list in (docs/moving-a-list.md): a CSV file read row by row, each row checked
 * (domain/import-row.ts), the rows across the file settled (domain/import-plan.ts), staged apart
 * from the list and written in one transaction (store/statements/import.ts). Admins only; one
 * activity entry with the counts, never an address.
 */
import {
  BASE62_ALPHABET,
  checkEmail,
  type FieldDefinition,
  generateReferralCode,
  randomString,
} from '@waitlistkit/protocol';
import { CsvFileError, readCsv } from '../adapters/csv-reader.js';
import { newCapabilityToken } from '../domain/ids.js';
import {
  ImportPlan,
  type ImportSummary,
  mayImport,
  outsideKeys,
  referralOutcome,
} from '../domain/import-plan.js';
import { checkRow, importKey, readHeader } from '../domain/import-row.js';
import { searchText } from '../domain/search.js';
import type { Dedupe } from '../domain/settings.js';
import { signupExtras } from '../domain/signup-extras.js';
import type { ListImport, StagedRow } from '../store/statements/import.js';
import { type Acting, adminOnly, type Base, own } from './guard.js';
import { conflict, invalid, notFound, ok, type Result, refuse } from './refusal.js';

export interface ImportRequest {
  waitlistId: string;
  file: AsyncIterable<Buffer | string>;
  /** Count and check, write nothing. */
  dryRun: boolean;
  /** Import the valid rows even when some are invalid. */
  skipInvalid: boolean;
  /** Send `subscriber.created` and `referral.credited`, and confirmation mail (docs/moving-a-list.md#events). */
  sendEvents: boolean;
  /** Called now and then with the rows read so far. */
  onRows?: (rows: number) => void;
}

/** Rows staged per statement. */
const STAGE_BATCH = 1000;

/**
 * Ids of an import's rows: one random prefix and a counter, so that they sort in file order and
 * rows joining at the same time keep the file's order (the line's ties go by id).
 */
function idsInFileOrder(): () => string {
  const prefix = `sub_${randomString(BASE62_ALPHABET, 7)}`;
  let n = 0;
  return () => `${prefix}${String(n++).padStart(9, '0')}`;
}

export async function importList(
  ctx: Base,
  who: Acting,
  request: ImportRequest,
): Promise<Result<ImportSummary>> {
  const { store, clock } = ctx;
  const about = async () => ({
    action: 'subscriber.import_refused' as const,
    details: { waitlist_id: own(who, await store.reads.waitlists.get(request.waitlistId))?.id ?? null },
  });
  const denied = await adminOnly(ctx, who, 'Only admins can import subscribers.', about);
  if (denied) return refuse(denied);
  const waitlist = own(who, await store.reads.waitlists.get(request.waitlistId));
  if (!waitlist) return refuse(notFound('waitlist', request.waitlistId));
  if (waitlist.archived)
    return refuse(invalid('The waitlist is archived: it takes no subscribers.', 'waitlist'));

  const listImport = await store.openImport(waitlist.id);
  try {
    const read = await readRows(listImport, request, {
      nowUs: clock.nowMicros(),
      fields: waitlist.settings.fields,
      dedupe: waitlist.settings.dedupe,
      referral: (confirmed) => referralOutcome(waitlist.settings, confirmed),
    });
    if (!read.ok) return read;
    const { plan, repeats } = read.value;
    const referrals = await listImport.referrals();
    await listImport.drop(plan.settle(referrals, await listImport.onList(outsideKeys(referrals))));
    const invalidRows = plan.invalid();
    const writes = !request.dryRun && mayImport(invalidRows.length, request.skipInvalid);
    const counts = writes
      ? await listImport.commit({
          tenantId: waitlist.tenant_id,
          version: waitlist.version,
          nowUs: clock.nowMicros(),
          boost: waitlist.settings.referral_boost,
          sendEvents: request.sendEvents,
          mailUnconfirmed: request.sendEvents && waitlist.settings.confirm_email,
        })
      : await listImport.preview();
    if (counts === null)
      return refuse(
        conflict(
          'The waitlist’s settings were saved while the file was read: nothing was imported; import it again.',
        ),
      );
    const summary: ImportSummary = {
      imported:
        writes || (request.dryRun && mayImport(invalidRows.length, request.skipInvalid))
          ? counts.imported
          : 0,
      skipped_existing: counts.skipped_existing,
      skipped_repeats: repeats,
      invalid: invalidRows,
      credited: writes || request.dryRun ? counts.credited : 0,
    };
    if (writes) {
      const { invalid: bad, ...numbers } = summary;
      await store.write((tx) =>
        tx.activity.append(
          {
            tenantId: who.tenantId,
            actor: who.actor,
            action: 'subscriber.imported',
            subjectId: waitlist.id,
            details: { ...numbers, invalid: bad.length },
          },
          clock.now(),
        ),
      );
    }
    return ok(summary);
  } finally {
    await listImport.close();
  }
}

interface RowContext {
  nowUs: number;
  fields: readonly FieldDefinition[];
  dedupe: Dedupe;
  referral: (confirmed: boolean | null) => StagedRow['referral'];
}

/** Reads the file into the staging, checking each row; the file's own faults are a refusal naming the line. */
async function readRows(
  listImport: ListImport,
  request: ImportRequest,
  context: RowContext,
): Promise<Result<{ plan: ImportPlan; repeats: number }>> {
  const plan = new ImportPlan();
  const nextId = idsInFileOrder();
  let batch: StagedRow[] = [];
  let rows = 0;
  let valid = 0;
  let staged = 0;
  try {
    let header: ReturnType<typeof readHeader> | undefined;
    for await (const { line, cells } of readCsv(request.file)) {
      if (header === undefined) {
        header = readHeader(cells, context.fields);
        if (!header.ok) return refuse(invalid(`Line ${line}: ${header.reason}`));
        continue;
      }
      if (!header.ok) break;
      rows++;
      if (rows % 10_000 === 0) request.onRows?.(rows);
      const checked = checkRow(header.value, cells, context);
      if (!checked.ok) {
        const at = header.value.at.email;
        const email = checkEmail(at === undefined ? '' : (cells[at] ?? '').trim());
        plan.reject(line, checked.reason, email.ok ? importKey(email.normalized, context.dedupe) : undefined);
        continue;
      }
      const row = checked.value;
      const extras = signupExtras(row.normalized, row.fields, row.source, row.lang);
      valid++;
      batch.push({
        line,
        id: nextId(),
        email: row.email,
        key: row.key,
        norm: row.normalized,
        search: searchText(row.email),
        referralCode: generateReferralCode(),
        statusToken: newCapabilityToken(),
        confirmToken: row.confirmed === false ? newCapabilityToken() : null,
        joinedUs: row.joinedUs,
        referrerKey: row.referrerKey,
        referral: context.referral(row.confirmed),
        fields: extras.fields,
        source: extras.source,
        sourceChannel: extras.sourceChannel,
        variantKey: context.dedupe === 'provider' ? (extras.variantKey ?? null) : null,
        lang: extras.lang,
      });
      if (batch.length >= STAGE_BATCH) {
        staged += await listImport.stage(batch);
        batch = [];
      }
    }
    if (rows === 0) return refuse(invalid('The file has a header and no rows: there is nothing to import.'));
    staged += await listImport.stage(batch);
    request.onRows?.(rows);
    return ok({ plan, repeats: valid - staged });
  } catch (error) {
    if (error instanceof CsvFileError) return refuse(invalid(error.message));
    throw error;
  }
}
