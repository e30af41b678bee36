/**
 * esbuild plugin for the widget's bundles: marks every zod call of the protocol's sources as
 * pure, so a schema the widget does not use goes with its module's unused code.
 *
 * The widget uses plain functions that sit beside schemas (`checkFieldValues` in fields.ts,
 * `keptSource` in attribution.ts). A module used at all keeps its top-level statements unless
 * the bundler knows them free of side effects; zod marks its own factories so, but not a chain
 * such as `z.string().check(…)`, and one kept schema holds zod's core (some 9 kB gzipped). A zod
 * call only builds a schema object, so the mark is true; size.test.ts checks no zod is left.
 */
import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Options } from 'tsup';
import { PROTOCOL_SOURCE } from './solver.js';

type EsbuildPlugin = NonNullable<Options['esbuildPlugins']>[number];

const escaped = dirname(PROTOCOL_SOURCE).replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** `z.string()`, `z\n  .string()`, but not `foo.z.string()`: each marked where its chain starts. */
export const markZodCallsPure = (source: string): string =>
  source.replace(/(?<![\w.$])z\s*\.\s*(\w+)\(/g, '/* @__PURE__ */ z.$1(');

export function pureZodPlugin(): EsbuildPlugin {
  return {
    name: 'pure-zod',
    setup(build) {
      build.onLoad({ filter: new RegExp(`^${escaped}/.*\\.ts$`) }, async (args) => ({
        contents: markZodCallsPure(await readFile(args.path, 'utf8')),
        loader: 'ts',
      }));
    },
  };
}
