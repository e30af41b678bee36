/**
 * The system tools a benchmark may need, the Debian package that provides each, and whether this
 * machine has it (asked once per run).
 */
import { existsSync } from 'node:fs';
import { CHROMIUM_PATH, postgresInstalled } from '@waitlistkit/testkit';
import type { Tool } from './bench.js';
import { wrkVersion } from './wrk.js';

export const APT_PACKAGE: Record<Tool, string> = { wrk: 'wrk', chromium: 'chromium', postgres: 'postgresql' };

const probes: Record<Tool, () => boolean> = {
  wrk: () => wrkVersion() !== undefined,
  chromium: () => existsSync(CHROMIUM_PATH),
  postgres: postgresInstalled,
};

const presence = new Map<Tool, boolean>();

export function present(tool: Tool): boolean {
  let known = presence.get(tool);
  if (known === undefined) {
    known = probes[tool]();
    presence.set(tool, known);
  }
  return known;
}
