/**
 * Item 2's baseline for the view beacon (docs/insights.md#views): the widget's script-tag file
 * built twice by the widget's own tsup configuration, as it is and with `src/core/view.ts`
 * replaced by a module of the same export that does nothing, so the bundler drops what only the
 * beacon used. Not part of the benchmarks' build: lib/widget-builds.ts runs the tsup command line
 * on it from the widget's folder, with WIDGET_BUILD_OUT the folder to write the two files to.
 */
import { join } from 'node:path';
import type { Plugin } from 'esbuild';
import type { Options } from 'tsup';
import widgetConfig from '../../../widget/tsup.config.js';

const out = process.env.WIDGET_BUILD_OUT;
if (!out) throw new Error('WIDGET_BUILD_OUT is not set');

const noView: Plugin = {
  name: 'no-view',
  setup(build) {
    build.onLoad({ filter: /[\\/]widget[\\/]src[\\/]core[\\/]view\.ts$/ }, () => ({
      contents: 'export function countView(_options: unknown, _source?: unknown): void {}',
      loader: 'ts',
    }));
  },
};

const configs = (Array.isArray(widgetConfig) ? widgetConfig : [widgetConfig]) as Options[];
const script = configs.find(
  (c) => typeof c.entry === 'object' && !Array.isArray(c.entry) && 'waitlist' in c.entry,
);
if (!script) throw new Error("the widget's tsup configuration has no script-tag build (entry `waitlist`)");

export default [
  { ...script, dts: false, outDir: join(out, 'with-view') },
  // First, so its file wins over the widget's plugins for view.ts.
  {
    ...script,
    dts: false,
    outDir: join(out, 'without-view'),
    esbuildPlugins: [noView, ...(script.esbuildPlugins ?? [])],
  },
] satisfies Options[];
