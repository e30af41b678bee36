import { defineConfig, type Options } from 'tsup';

const common: Options = {
  entry: ['src/index.ts'],
  dts: true,
  sourcemap: true,
  target: 'es2022',
  // Not tsup's `clean`: the two builds below run in parallel, and each one's clean would delete the
  // other's output. The build script empties `dist` before tsup starts instead.
  clean: false,
};

export default defineConfig([
  { ...common, format: ['esm'] },
  // ky ships ES modules only, and `require()` of an ES module needs Node 20.19 or later. The
  // CommonJS build therefore carries its own copy of ky (a few kilobytes), so it loads on every
  // Node 20; the ES module build imports ky as a normal dependency.
  {
    ...common,
    format: ['cjs'],
    noExternal: ['ky'],
    banner: { js: '/*! Includes ky (https://github.com/sindresorhus/ky), MIT License, (c) Sindre Sorhus */' },
  },
]);
