/**
 * The widget's script-tag file built again with and without its view beacon
 * (baselines/widget-without-view.tsup.ts), by the tsup command line the widget's own build runs.
 */
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { BENCH_ROOT, WORKSPACE_ROOT } from './paths.js';

const require = createRequire(import.meta.url);

/** Builds both into `dir`; resolves to the two files' paths. */
export async function buildWidgetWithAndWithoutView(
  dir: string,
): Promise<{ withView: string; withoutView: string }> {
  const tsup = join(
    dirname(require.resolve('tsup/package.json', { paths: [WORKSPACE_ROOT] })),
    'dist/cli-default.js',
  );
  await promisify(execFile)(
    process.execPath,
    [tsup, '--config', join(BENCH_ROOT, 'src/baselines/widget-without-view.tsup.ts'), '--silent'],
    {
      cwd: join(WORKSPACE_ROOT, 'packages/widget'),
      env: { ...process.env, WIDGET_BUILD_OUT: dir },
      maxBuffer: 16 * 2 ** 20,
    },
  );
  return { withView: join(dir, 'with-view/waitlist.js'), withoutView: join(dir, 'without-view/waitlist.js') };
}
