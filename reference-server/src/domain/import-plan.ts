/**
 * The rules across an import's rows (docs/moving-a-list.md#what-is-imported), pure: referrers
 * (in the file or already on the list), cycles of referrers, and what the summary says. Rows are
 * not kept here: the staging holds them, one per address, and hands back only the referrals, so
 * a million rows cost no memory of the process.
 */
import type { WaitlistSettings } from './settings.js';

export interface InvalidRow {
  line: number;
  reason: string;
}

/** `subscriber import`'s answer (docs/command-line.md#moving-a-list). */
export interface ImportSummary {
  imported: number;
  skipped_existing: number;
  skipped_repeats: number;
  invalid: InvalidRow[];
  credited: number;
}

/** A row naming a referrer, as the staging reads it back: its line, the referrer's key, and the line of the referrer's row in the file, if any. */
export interface Referral {
  line: number;
  refKey: string;
  refLine: number | null;
}

/**
 * The invalid rows of a file, as they are found: each row's own faults while it is read, then
 * those of the referrals once the whole file is staged. Repeats are found by the staging itself
 * (one row per key, the first), so no row of the file is held here but the invalid ones.
 */
export class ImportPlan {
  /** Addresses of invalid rows, with the first such line. */
  private readonly invalidLine = new Map<string, number>();
  private readonly invalidRows: InvalidRow[] = [];

  /** A row that is invalid on its own; `key` when its address could be read. */
  reject(line: number, reason: string, key?: string): void {
    this.invalidRows.push({ line, reason });
    if (key !== undefined && !this.invalidLine.has(key)) this.invalidLine.set(key, line);
  }

  /**
   * Settles the referrals once the list answered `onList` (which referrers outside the file it
   * holds, see `outsideKeys`): a referrer neither in the file nor on the list, a cycle of
   * referrers (a→b→a), and a referrer whose own row is invalid make the row invalid. Answers the
   * lines of staged rows that are invalid after all (not to be imported).
   */
  settle(referrals: readonly Referral[], onList: ReadonlySet<string>): number[] {
    const byLine = new Map(referrals.map((r) => [r.line, r]));
    const verdict = new Map<number, string | null>();
    const names = (line: number) => `\`referred_by\` names the address of line ${line}, which is invalid.`;
    const decide = (start: number): void => {
      // Walks up the chain of referrers in the file until a decided row, the list, or a row met twice.
      const path: number[] = [];
      const onPath = new Set<number>();
      let line: number | undefined = start;
      while (line !== undefined && !verdict.has(line)) {
        if (onPath.has(line)) {
          const cycle = path.slice(path.indexOf(line));
          const lines = [...cycle, line].map((l) => `line ${l}`).join(' → ');
          for (const l of cycle) verdict.set(l, `\`referred_by\` makes a cycle: ${lines}.`);
          break;
        }
        path.push(line);
        onPath.add(line);
        const referral = byLine.get(line);
        if (referral === undefined || (referral.refLine === null && onList.has(referral.refKey))) {
          verdict.set(line, null);
          break;
        }
        if (referral.refLine === null) {
          const badLine = this.invalidLine.get(referral.refKey);
          verdict.set(
            line,
            badLine !== undefined
              ? names(badLine)
              : '`referred_by` is neither an address in the file nor one on the list.',
          );
          break;
        }
        line = referral.refLine;
      }
      // Everyone below on the path takes the verdict of the one above them.
      for (let i = path.length - 1; i >= 0; i--) {
        const l = path[i] as number;
        if (verdict.has(l)) continue;
        const above = byLine.get(l)?.refLine as number;
        verdict.set(l, verdict.get(above) ? names(above) : null);
      }
    };
    const dropped: number[] = [];
    for (const { line } of referrals) {
      decide(line);
      const why = verdict.get(line);
      if (why) {
        this.invalidRows.push({ line, reason: why });
        dropped.push(line);
      }
    }
    return dropped;
  }

  /** Every invalid row so far, by line. */
  invalid(): InvalidRow[] {
    return [...this.invalidRows].sort((a, b) => a.line - b.line);
  }
}

/** Referrers' keys that no row of the file has: the caller asks the list which of these it holds. */
export function outsideKeys(referrals: readonly Referral[]): string[] {
  return [...new Set(referrals.filter((r) => r.refLine === null).map((r) => r.refKey))];
}

/** Nothing is imported while a row is invalid, unless the operator said to skip them. */
export function mayImport(invalidRows: number, skipInvalid: boolean): boolean {
  return invalidRows === 0 || skipInvalid;
}

/**
 * What a row's referrer gets (docs/subscribers.md#referral-credit): nothing while referrals are
 * off; on a waitlist that confirms addresses, a row not confirmed is noted and credited when it
 * confirms; otherwise a credit now.
 */
export function referralOutcome(
  settings: Pick<WaitlistSettings, 'referrals' | 'confirm_email'>,
  confirmed: boolean | null,
): 'none' | 'noted' | 'credited' {
  if (!settings.referrals) return 'none';
  return settings.confirm_email && confirmed === false ? 'noted' : 'credited';
}
