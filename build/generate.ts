// The build step that turns the resource definitions (src/resources/<domain>/<name>.ts) into what
// must never drift from them, in src/generated/: the resource table, and per resource a mapping
// (what reads and writes use) carrying its doc (what /openapi.json, /schema and a write's body check
// are built from at request time); and the fixed part of the OpenAPI document. Each comes
// from its generator under build/generators/. Run from dist/gen/build/ after
// `tsc -p tsconfig.generate.json`, before the project's own compilation.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HEADER, loadResources, ROOT } from './generators/inventory.js';
import { assertCheckable, docOf, docText, documentIdModule } from './generators/docs.js';
import { mappingModule, tableModules } from './generators/mappings.js';
import { FIXED_ROUTES } from '../src/routes.js';
import { docDir } from '../shims/emu/project.js';
import { patterns, patternsModule } from './generators/patterns.js';
import { fixedDocument, fixedModule } from './generators/openapi-fixed.js';
import { bareDoc, bareFixed, proseFiles } from './generators/prose.js';
import { keptPackagesModule, rawModule } from './generators/raw.js';

const OUT = join(ROOT, 'src/generated');

function write(path: string, text: string): void {
  mkdirSync(join(OUT, path, '..'), { recursive: true });
  writeFileSync(join(OUT, path), text);
}

async function generate(): Promise<void> {
  const resources = await loadResources();
  const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
  rmSync(OUT, { recursive: true, force: true });
  const docs = resources.map(({ definition }) => docOf(definition, resources.map((resource) => resource.definition)));
  const patternIndex = new Map([...new Set(patterns(docs))].map((pattern, index) => [pattern, index]));
  write('patterns.ts', patternsModule(HEADER, [...patternIndex.keys()]));
  resources.forEach((resource, i) => {
    assertCheckable(docs[i]);
    write(`mappings/${resource.module}.ts`, mappingModule(resource, docText(bareDoc(docs[i]), patternIndex)));
  });
  const { index, tables } = tableModules(resources, FIXED_ROUTES);
  write('resources.ts', index);
  for (const [name, table] of tables) write(`tables/${name}.ts`, table);
  write('raw.ts', rawModule(resources));
  write('kept-packages.ts', keptPackagesModule(resources));
  const fixed = fixedDocument(version);
  write('openapi-fixed.ts', fixedModule(bareFixed(fixed)));
  // Names the document these docs assemble into, for the copy GET /openapi.json keeps in RAM, and
  // the build wrtapi-doc's prose belongs to.
  const documentId = createHash('sha256').update(JSON.stringify(docs)).update(JSON.stringify(proseFiles('', docs, fixed))).digest('hex').slice(0, 16);
  write('document-id.ts', documentIdModule(documentId));
  rmSync(docDir, { recursive: true, force: true });
  for (const [path, content] of Object.entries(proseFiles(documentId, docs, fixed))) {
    mkdirSync(join(docDir, path, '..'), { recursive: true });
    writeFileSync(join(docDir, path), JSON.stringify(content));
  }
}

await generate();
