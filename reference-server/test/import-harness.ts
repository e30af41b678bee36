/**
 * What the import tests share: a server with its database, CSV files written to a folder of the
 * test's, and `subscriber import` run on them through the command line.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Tenant, tempDir } from '@waitlistkit/testkit';
import { afterAll, beforeAll } from 'vitest';
import { type Harness, harness } from './helpers.js';

/** `subscriber import`'s answer (docs/command-line.md#moving-a-list). */
export interface Summary {
  imported: number;
  skipped_existing: number;
  skipped_repeats: number;
  invalid: { line: number; reason: string }[];
  credited: number;
}

/** Starts a server for the file's tests (stopped after them), with `env` besides; `h()` is it once they run. */
export function importHarness(env: Record<string, string> = {}) {
  let h: Harness | undefined;
  const dir = tempDir();
  beforeAll(async () => {
    h = await harness({ WAITLIST_KEY_RATE_LIMIT: '100000', ...env });
  });
  afterAll(async () => {
    await h?.close();
    dir.cleanup();
  });
  const running = () => {
    if (!h) throw new Error('the harness starts in beforeAll');
    return h;
  };
  let files = 0;
  return {
    h: running,
    dir: dir.dir,
    /** A CSV file of the test's with this content. */
    file(text: string | Buffer): string {
      const path = join(dir.dir, `import-${files++}.csv`);
      writeFileSync(path, text);
      return path;
    },
    importFile: (t: Tenant, path: string, ...flags: string[]) =>
      running().cli<Summary>([
        'subscriber',
        'import',
        '--operator',
        t.operatorId,
        '--waitlist',
        t.waitlistId,
        '--file',
        path,
        ...flags,
      ]),
  };
}
