/**
 * After tsup (run from the package directory by the build script).
 *
 * The script-tag file must be `dist/waitlist.js`, a plain script. In this ES-module package
 * Node would read a `.js` as an ES module, and `require()` of it (are-the-types-wrong checks the
 * package's "./waitlist.js" export from CommonJS too) fails on Node 20. A package.json in dist/
 * makes its `.js` files CommonJS; every other file there has an explicit extension (.mjs, .cjs,
 * .d.mts, .d.cts), so nothing else changes meaning.
 *
 * tsup names the ES module build's declarations `index.d.ts` (its declaration worker does not
 * see `outExtension`); under that package.json they must be `index.d.mts`.
 *
 * The locale files go beside the script-tag file, as served (`dist/locales/<tag>.json`),
 * without their indentation: each is fetched by the pages that speak it.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';

renameSync('dist/index.d.ts', 'dist/index.d.mts');
writeFileSync('dist/package.json', '{\n  "type": "commonjs"\n}\n');
mkdirSync('dist/locales');
for (const file of readdirSync('src/locales')) {
  const texts = JSON.parse(readFileSync(`src/locales/${file}`, 'utf8'));
  writeFileSync(`dist/locales/${file}`, JSON.stringify(texts));
}
