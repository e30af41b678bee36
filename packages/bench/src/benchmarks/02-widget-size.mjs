/**
 * Item 2: bytes after gzip -9 of the widget's script-tag file against the main browser files of
 * the widgets people glue on today, from npm, measured in the same run.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { gzip9 } from '../lib/gzip.mjs';
import { fmtInt, fmtRatio } from '../lib/stats.mjs';

const require = createRequire(import.meta.url);
/** A package's folder, from its entry point (some exports maps hide package.json). */
function packageDir(name) {
  for (let dir = dirname(require.resolve(name)); dir !== dirname(dir); dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && JSON.parse(readFileSync(manifest, 'utf8')).name === name) return dir;
  }
  throw new Error(`no package folder found for ${name}`);
}
const pkg = (name, file) => join(packageDir(name), file);
const version = (name) => JSON.parse(readFileSync(pkg(name, 'package.json'), 'utf8')).version;

export default {
  id: '2',
  title: 'Widget size',
  async run() {
    const ours = gzip9(require.resolve('@waitlistkit/widget/waitlist.js'));
    const others = [
      ['altcha', 'dist/main/altcha.min.js', ''],
      ['friendly-challenge', 'widget.min.js', ''],
      ['@cap.js/widget', 'cap.min.js', ' (fetches its WebAssembly separately, below)'],
      ['@cap.js/wasm', 'browser/cap_wasm_bg.wasm', ' (from a CDN at run time)'],
    ].map(([name, file, note]) => {
      const { size } = gzip9(pkg(name, file));
      return {
        name: `${name} ${version(name)}: ${file}${note}`,
        value: `${fmtInt(size)} B`,
        baseline: `${fmtInt(ours.size)} B`,
        ratio: fmtRatio(size / ours.size),
        size,
      };
    });
    const cap = others.slice(2).reduce((n, r) => n + r.size, 0);
    return {
      sections: [
        {
          title: 'Item 2: widget size (bytes after gzip -9)',
          intro: `Measured with ${ours.by}. Baseline: the widget's script-tag file, which holds everything (preact, the form, the solver, its worker code and its WebAssembly kernel); the ratio is the other file's size ÷ ours.`,
          rows: [
            {
              name: '@waitlistkit/widget: dist/waitlist.js (baseline)',
              value: `${fmtInt(ours.size)} B`,
              baseline: `${fmtInt(ours.size)} B`,
              ratio: '1.00×',
              goal: '≤ 15,000 B',
              met: ours.size <= 15_000 ? 'yes' : 'NO',
            },
            ...others,
            {
              name: 'Cap, what a page downloads (widget + WebAssembly)',
              value: `${fmtInt(cap)} B`,
              baseline: `${fmtInt(ours.size)} B`,
              ratio: fmtRatio(cap / ours.size),
            },
          ],
        },
      ],
    };
  },
};
