import { nodeResolve } from '@rollup/plugin-node-resolve';
import terser from '@rollup/plugin-terser';
import typescript from '@rollup/plugin-typescript';
import type { Plugin, RollupOptions } from 'rollup';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';

/** What code imports by a computed name (engine/tables.ts, src/main.ts) is kept at its source path. */
const byName = (folder: string, chosen: (file: string) => boolean = () => true) =>
  Object.fromEntries(readdirSync(folder).filter(chosen).map((file) => [`${folder.replace(/^src\//, '')}/${file.replace(/\.ts$/, '')}`, `${folder}/${file}`]));
/** A route module exports a handler per verb (handlers/context.ts). */
const isRouteModule = (file: string) => /^export ((async )?function|const) (GET|POST|PUT|PATCH|DELETE)\b/m.test(readFileSync(`src/handlers/${file}`, 'utf8'));

type ModuleInfoOf = (id: string) => { importedIds: readonly string[] } | null;
let placement: Map<string, string> | undefined;
/**
 * The chunk of each module the CGI entry imports statically: the entry itself, which the other
 * programs import what they share with it from (it runs nothing when loaded), so that a request
 * loads it as one module. A manual chunk takes in all it imports, so these are placed before it.
 */
function entryPlacement(getModuleInfo: ModuleInfoOf): Map<string, string> {
  const reach = (entry: string) => {
    const seen = new Set<string>();
    const visit = (id: string) => {
      if (seen.has(id)) return;
      seen.add(id);
      for (const imported of getModuleInfo(id)?.importedIds ?? []) visit(imported);
    };
    visit(resolve(entry));
    return seen;
  };
  placement ??= new Map([...reach(config.input.cgi)].map((id) => [id, 'cgi']));
  return placement;
}

/**
 * Writes the bundle's hash over platform/version.ts's BUILD placeholder, in every chunk that holds
 * it: what one build derived and wrtapi-bytecode kept is never taken for another's.
 */
function buildIdentity(placeholder: string): Plugin {
  return {
    name: 'build-identity',
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).flatMap((file) => (file.type === 'chunk' ? [file] : []));
      chunks.sort((a, b) => (a.fileName < b.fileName ? -1 : 1));
      const hash = createHash('sha256');
      for (const chunk of chunks) hash.update(`${chunk.fileName}\0${chunk.code}\0`);
      const identity = hash.digest('hex').slice(0, placeholder.length);
      const holders = chunks.filter((chunk) => chunk.code.includes(placeholder));
      if (!holders.length) this.error(`no chunk holds the build placeholder ${placeholder}`);
      for (const chunk of holders) chunk.code = chunk.code.replaceAll(placeholder, identity);
    },
  };
}

// The QuickJS bundle: one entry per program, and one chunk per route reached through import(),
// so a request parses only the pipeline plus the code of the route it hits.
const config: RollupOptions & { input: Record<string, string> } = {
  input: {
    // The program uhttpd runs is a launcher of a few hundred bytes: the bytecode cache, when
    // installed, must be in place before the CGI entry and everything it imports is loaded.
    wrtapi: 'shims/qjs/launch.ts',
    cgi: 'shims/qjs/cgi.ts',
    'wrtapi-token': 'shims/qjs/token.ts',
    setup: 'shims/qjs/setup.ts',
    // The helper that keeps a commit-confirm window, and the boot hook that rolls back after a reboot.
    'wrtapi-confirm': 'shims/qjs/confirm.ts',
    ...byName('src/generated/tables'),
    ...byName('src/generated/mappings'),
    ...byName('src/handlers', isRouteModule),
  },
  external: ['std', 'os'],
  plugins: [
    nodeResolve(),
    typescript({ tsconfig: './tsconfig.json', outputToFilesystem: false, noEmitOnError: true, removeComments: false }),
    terser({ ecma: 2020, module: true }),
    buildIdentity('wrtapi-build-000'),
  ],
  output: {
    dir: 'dist/qjs',
    format: 'es',
    entryFileNames: '[name].js',
    // Chunks are named for what they belong to, so the benchmark can tell that a read never loaded the
    // patterns a body check uses, and the package can tell what each resource adds: a resource's
    // generated mapping (which carries its doc), its definition's chunk, and what the definitions of a domain share.
    chunkFileNames: (chunk) => {
      // Data every resource has a share of: the patterns of their docs, kept once, and the resource
      // table. A chunk imported by several has no facade: it is known by the modules it holds.
      const only = chunk.moduleIds.length === 1 ? chunk.moduleIds[0] : '';
      if (/\/generated\/patterns\.ts$/.test(only)) return 'docs/[name].js';
      if (/\/generated\/(resources|raw)\.ts$/.test(only)) return 'mappings/[name].js';
      // One folder below the root, as in src/, so that its computed import()s find their modules.
      if (/\/engine\/tables\.ts$/.test(only)) return 'engine/[name].js';
      // A chunk of one domain's definitions, maybe with the vocabulary they alone use (codecs).
      const places = chunk.moduleIds.map((id) => /\/src\/resources\/(?:(\w+)\/)?\w+\.ts$/.exec(id));
      const domains = new Set(places.map((place) => place?.[1]).filter(Boolean));
      const [domain] = domains;
      return places.every(Boolean) && domains.size === 1 ? `resources/${domain}_[name].js` : 'routes/[name].js';
    },
    // What raw passthrough knows of the curated types grows with the inventory: a chunk of its own,
    // weighed as the resources' share.
    manualChunks: (id, { getModuleInfo }) => {
      if (/\/generated\/raw\.ts$/.test(id)) return 'raw';
      if (/\/engine\/tables\.ts$/.test(id)) return 'tables';
      // The sweep rides with the write locks that run it, not in a file of its own: the metrics fold,
      // which shares only its test of a dead temporary, is one request in 64. The lock files, which
      // reads use too, stay apart.
      if (/\/config\/(locks|leftovers)\.ts$/.test(id)) return 'locks';
      if (/\/config\/lock-file\.ts$/.test(id)) return 'lock-file';
      // What reads a shared mapping back rides with the model every read loads, not in a file of its own.
      if (/\/resources\/(model|shared-mapping)\.ts$/.test(id)) return 'model';
      // What every request runs stays in the entry, though route modules, entries too, import it.
      return entryPlacement(getModuleInfo).get(id);
    },
    generatedCode: 'es2015',
    hoistTransitiveImports: false,
  },
  // The CGI entry may export more than `serve`: what the other programs share with it (entryPlacement).
  preserveEntrySignatures: 'allow-extension',
  treeshake: { moduleSideEffects: false },
};

export default config;
