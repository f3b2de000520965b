import { nodeResolve } from '@rollup/plugin-node-resolve';
import terser from '@rollup/plugin-terser';
import typescript from '@rollup/plugin-typescript';
import type { RollupOptions } from 'rollup';
import { readdirSync } from 'node:fs';

// The QuickJS bundle: one entry per program, and one chunk per route reached through import(),
// so a request parses only the pipeline plus the code of the route it hits.
const config: RollupOptions = {
  input: {
    wrtapi: 'shims/qjs/cgi.ts',
    'wrtapi-token': 'shims/qjs/token.ts',
    setup: 'shims/qjs/setup.ts',
    // Each domain's resource table, which src/routes.ts imports by the domain's name.
    ...Object.fromEntries(
      readdirSync('src/generated/tables').map((file) => [`generated/tables/${file.replace(/\.ts$/, '')}`, `src/generated/tables/${file}`]),
    ),
  },
  external: ['std', 'os'],
  plugins: [nodeResolve(), typescript({ tsconfig: './tsconfig.json', outputToFilesystem: false, noEmitOnError: true, removeComments: false }), terser({ ecma: 2020, module: true })],
  output: {
    dir: 'dist/qjs',
    format: 'es',
    entryFileNames: '[name].js',
    // Chunks are named for what they belong to, so the benchmark can tell that a read never opened a
    // doc, and the package can tell what each resource adds: a resource's generated mapping and doc,
    // its definition's chunk, and what the definitions of a domain share.
    chunkFileNames: (chunk) => {
      const generated = /\/generated\/(mappings|docs)\//.exec(chunk.facadeModuleId ?? '');
      if (generated) return `${generated[1]}/[name].js`;
      // Data every resource has a share of: the patterns of their docs, kept once, and the resource
      // table. A chunk imported by several has no facade: it is known by the modules it holds.
      const only = chunk.moduleIds.length === 1 ? chunk.moduleIds[0] : '';
      if (/\/generated\/patterns\.ts$/.test(only)) return 'docs/[name].js';
      if (/\/generated\/(resources|raw)\.ts$/.test(only)) return 'mappings/[name].js';
      // A chunk of one domain's definitions, maybe with the vocabulary they alone use (codecs).
      const places = chunk.moduleIds.map((id) => /\/src\/resources\/(?:(\w+)\/)?\w+\.ts$/.exec(id));
      const domains = new Set(places.map((place) => place?.[1]).filter(Boolean));
      const [domain] = domains;
      return places.every(Boolean) && domains.size === 1 ? `resources/${domain}_[name].js` : 'routes/[name].js';
    },
    // What raw passthrough knows of the curated types grows with the inventory: a chunk of its own,
    // weighed as the resources' share.
    manualChunks: (id) => (/\/generated\/raw\.ts$/.test(id) ? 'raw' : undefined),
    generatedCode: 'es2015',
    hoistTransitiveImports: false,
  },
  treeshake: { moduleSideEffects: false },
};

export default config;
