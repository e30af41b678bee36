/**
 * Real headless Chromium for browser tests: Debian's build (no browser downloads), driven by
 * playwright-core. Browser tests are required in CI (`CI=true`, where `.ci/run` installs
 * Chromium); on a workstation without Chromium they are skipped with the reason printed.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { type Browser, chromium, type Page } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const chromiumMissing =
  !existsSync(CHROMIUM_PATH) && process.env.CI !== 'true'
    ? `Chromium not found at ${CHROMIUM_PATH}: browser tests skipped (apt-get install -y chromium; required when CI=true)`
    : undefined;

if (chromiumMissing) console.warn(chromiumMissing);

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    // As the machine notes say: without these, Chromium's background connections are refused
    // by this closed network, many at a time.
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown; html: string }[];
}

/**
 * axe-core's violations on the current page (WCAG 2.x A and AA rules and best practices).
 * The page's context must be created with `bypassCSP: true`, since axe is injected inline.
 */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  await page.addScriptTag({ content: axeSource });
  return page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(): Promise<{ violations: AxeViolation[] }> } }).axe;
    const result = await axe.run();
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target, html: n.html })),
    }));
  });
}
