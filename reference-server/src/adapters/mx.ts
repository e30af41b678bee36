/**
 * MX verification (docs/subscribers.md#checks-on-the-address) with node:dns. A domain passes when it publishes an MX record
 * that is not a null MX. NXDOMAIN and "no MX records" fail it; a timeout or a server failure lets
 * the signup through (fail-open) and is logged, since a flaky resolver must not turn people away.
 */
import type { Resolver } from 'node:dns/promises';
import { mxAccepts } from '../domain/gates.js';

export type MxVerdict = 'accepts' | 'rejects' | 'unknown';

const NO_MAIL = new Set(['ENOTFOUND', 'ENODATA']);

export class MxChecker {
  private readonly cache = new Map<string, { verdict: MxVerdict; until: number }>();

  /** `resolver`: the server's one resolver (adapters/resolver.ts), shared with webhook sending. */
  constructor(
    private readonly resolver: Resolver,
    private readonly onUnknown: (domain: string, code: string) => void,
    private readonly cacheMs = 5 * 60_000,
  ) {}

  async check(domain: string, now = Date.now()): Promise<MxVerdict> {
    const cached = this.cache.get(domain);
    if (cached && cached.until > now) return cached.verdict;
    let verdict: MxVerdict;
    try {
      verdict = mxAccepts(await this.resolver.resolveMx(domain)) ? 'accepts' : 'rejects';
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'EUNKNOWN';
      if (NO_MAIL.has(code)) verdict = 'rejects';
      else {
        this.onUnknown(domain, code);
        return 'unknown';
      }
    }
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(domain, { verdict, until: now + this.cacheMs });
    return verdict;
  }

  cancel(): void {
    this.resolver.cancel();
  }
}
