/**
 * Build step shared by tsup (the package) and vitest (the tests): turns the solver engine
 * (entry `src/solver/worker.ts`) into the source of one self-contained function, served as the
 * module `virtual:waitlist-solver`. That one function is the Blob worker's code
 * (`fn.toString()`), the Node worker's code, and the main thread's fallback solver (called
 * directly, so a CSP without 'unsafe-eval' still works).
 *
 * The engine hashes with the Proof of Work kernel (build/pow-kernel.ts), embedded as a string, or
 * with the protocol's JavaScript SHA-256 where WebAssembly is forbidden.
 */
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Options } from 'tsup';
import { kernelByte } from '../src/solver/kernel-layout.js';
import { powKernel } from './pow-kernel.js';

type EsbuildPlugin = NonNullable<Options['esbuildPlugins']>[number];

interface Esbuild {
  build(options: Record<string, unknown>): Promise<{ outputFiles: { text: string }[] }>;
}

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
// tsup wraps esbuild; using its copy adds no dependency and keeps both builds on one version.
const esbuild = createRequire(require.resolve('tsup'))('esbuild') as Esbuild;

export const SOLVER_MODULE = 'virtual:waitlist-solver';
const KERNEL_MODULE = 'virtual:pow-kernel';
const ENGINE_ENTRY = resolve(here, '../src/solver/worker.ts');

/**
 * The protocol's source, so bundles keep only the functions they use. Its published build is
 * one chunk that also holds the zod schemas, which would cost ~12 kB gzipped in the script tag.
 */
export const PROTOCOL_SOURCE = resolve(
  dirname(require.resolve('@waitlistkit/protocol/package.json')),
  'src/index.ts',
);

/**
 * The kernel as a module: `export default` its bytes as a string of one character per byte
 * (through `kernelByte`), which gzips to less than base64 of the same bytes.
 */
async function kernelModule(): Promise<string> {
  const bytes = Buffer.from(Array.from(await powKernel(), (b) => kernelByte(String.fromCharCode(b))));
  return `export default ${JSON.stringify(bytes.toString('latin1'))};`;
}

/** The source of `virtual:waitlist-solver`: `export default function` returning the engine's exports. */
export async function solverModuleSource(): Promise<string> {
  const kernelPlugin: EsbuildPlugin = {
    name: 'pow-kernel',
    setup(build) {
      build.onResolve({ filter: /^virtual:pow-kernel$/ }, (args) => ({
        path: args.path,
        namespace: 'kernel',
      }));
      build.onLoad({ filter: /.*/, namespace: 'kernel' }, async () => ({
        contents: await kernelModule(),
        loader: 'js',
      }));
    },
  };
  const result = await esbuild.build({
    entryPoints: [ENGINE_ENTRY],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    legalComments: 'none',
    alias: { '@waitlistkit/protocol': PROTOCOL_SOURCE },
    plugins: [kernelPlugin],
  });
  const code = result.outputFiles[0]?.text;
  if (!code) throw new Error('the solver engine bundle is empty');
  return `export default function waitlistSolver() {\nvar waitlistEngine;\n${code}\nreturn waitlistEngine;\n}\n`;
}

/** esbuild plugin for tsup. */
export function solverEsbuildPlugin(): EsbuildPlugin {
  return {
    name: 'waitlist-solver',
    setup(build) {
      build.onResolve({ filter: /^virtual:waitlist-solver$/ }, (args) => ({
        path: args.path,
        namespace: 'waitlist-solver',
      }));
      build.onLoad({ filter: /.*/, namespace: 'waitlist-solver' }, async () => ({
        contents: await solverModuleSource(),
        loader: 'js',
      }));
    },
  };
}

/** Vite plugin for vitest: the same modules, so tests run the exact code the bundles ship. */
export function solverVitePlugin() {
  const prefix = '\0';
  return {
    name: 'waitlist-solver',
    resolveId(id: string) {
      return id === SOLVER_MODULE || id === KERNEL_MODULE ? prefix + id : undefined;
    },
    async load(id: string) {
      if (id === prefix + SOLVER_MODULE) return solverModuleSource();
      if (id === prefix + KERNEL_MODULE) return kernelModule();
      return undefined;
    },
  };
}
