/**
 * The rules across an import's rows (docs/moving-a-list.md#what-is-imported), pure: repeats of
 * an address within the file, referrers (in the file or already on the list), cycles of
 * referrers, and what the summary says. Rows arrive one at a time and are not kept: only each
 * address's key and line, and the referrals, so a million rows cost a map, not a copy of the file.
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

export class ImportPlan {
  /** The line of each address's first valid row. */
  private readonly firstLine = new Map<string, number>();
  /** Addresses whose every row so far was invalid, with the first such line. */
  private readonly invalidLine = new Map<string, number>();
  /** The rows naming a referrer: line, key, referrer's key. */
  private readonly referrals: [number, string, string][] = [];
  private readonly invalidRows: InvalidRow[] = [];
  repeats = 0;

  /** A valid row: `first` when its address is new to the file (the row to import), else a repeat, skipped. */
  add(line: number, key: string, referrerKey: string | null): 'first' | 'repeat' {
    if (this.firstLine.has(key)) {
      this.repeats++;
      return 'repeat';
    }
    this.firstLine.set(key, line);
    if (referrerKey !== null) this.referrals.push([line, key, referrerKey]);
    return 'first';
  }

  /** A row that is invalid on its own; `key` when its address could be read. */
  reject(line: number, reason: string, key?: string): void {
    this.invalidRows.push({ line, reason });
    if (key !== undefined && !this.firstLine.has(key) && !this.invalidLine.has(key))
      this.invalidLine.set(key, line);
  }

  /** Referrers' keys that no row of the file has: the caller asks the list which of these it holds. */
  outsideKeys(): string[] {
    return [...new Set(this.referrals.map(([, , r]) => r).filter((r) => !this.firstLine.has(r)))];
  }

  /**
   * Settles the referrals once the list answered `onList` (which of `outsideKeys` it holds): a
   * referrer neither in the file nor on the list, a cycle of referrers (a→b→a), and a referrer
   * whose own row is invalid make the row invalid. Answers the lines of rows `add` took that are
   * invalid after all (not to be imported).
   */
  settle(onList: ReadonlySet<string>): number[] {
    const referrerOf = new Map(this.referrals.map(([, key, r]) => [key, r]));
    const lineOf = (key: string) => this.firstLine.get(key) as number;
    const verdict = new Map<string, string | null>();
    const decide = (start: string): void => {
      // Walks up the chain of referrers in the file until a decided row, the list, or a row met twice.
      const path: string[] = [];
      const onPath = new Set<string>();
      let key: string | undefined = start;
      let reason: string | null = null;
      while (key !== undefined && !verdict.has(key)) {
        if (onPath.has(key)) {
          const cycle = path.slice(path.indexOf(key));
          const lines = [...cycle, key].map((k) => `line ${lineOf(k)}`).join(' → ');
          for (const k of cycle) verdict.set(k, `\`referred_by\` makes a cycle: ${lines}.`);
          break;
        }
        path.push(key);
        onPath.add(key);
        const referrer = referrerOf.get(key);
        if (referrer === undefined || onList.has(referrer)) {
          verdict.set(key, null);
          break;
        }
        if (!this.firstLine.has(referrer)) {
          const badLine = this.invalidLine.get(referrer);
          verdict.set(
            key,
            badLine !== undefined
              ? `\`referred_by\` names the address of line ${badLine}, which is invalid.`
              : '`referred_by` is neither an address in the file nor one on the list.',
          );
          break;
        }
        key = referrer;
      }
      // Everyone below on the path takes the verdict of the one above them.
      for (let i = path.length - 1; i >= 0; i--) {
        const k = path[i] as string;
        if (verdict.has(k)) continue;
        const above = verdict.get(referrerOf.get(k) as string);
        reason =
          above === null || above === undefined
            ? null
            : `\`referred_by\` names the address of line ${lineOf(referrerOf.get(k) as string)}, which is invalid.`;
        verdict.set(k, reason);
      }
    };
    const dropped: number[] = [];
    for (const [line, key] of this.referrals) {
      decide(key);
      const why = verdict.get(key);
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
