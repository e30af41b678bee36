// Writes openapi.json from the built schemas (`--write`), or checks that it is current
// (`--check-or-write` writes it only when missing, so a fresh clone builds, and drift still fails the tests).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { buildOpenApiDocument } from '../dist/openapi.js';

const target = new URL('../openapi.json', import.meta.url);
const text = `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`;
const mode = process.argv[2];
if (mode === '--write' || !existsSync(target)) {
  writeFileSync(target, text);
  console.log('openapi.json written');
} else if (readFileSync(target, 'utf8') !== text) {
  console.error('openapi.json is out of date: run `pnpm --filter @waitlistkit/protocol openapi`');
  process.exitCode = 1;
}
