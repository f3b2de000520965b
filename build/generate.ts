// The build step that turns the resource definitions (src/resources/<domain>/<name>.ts) into what
// must never drift from them, in src/generated/: the resource table, one mapping and one ajv
// standalone validator module per resource, the /schema answers and the OpenAPI 3.1 document. Each
// comes from its generator under build/generators/. Run from dist/gen/build/ after
// `tsc -p tsconfig.generate.json`, before the project's own compilation.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HEADER, loadResources, ROOT } from './generators/inventory.js';
import { mappingModule, resourcesModule } from './generators/mappings.js';
import { openapiDocument } from './generators/openapi.js';
import { schemaModule, schemasModule } from './generators/schemas.js';
import { ajvRuntimeModule, validatorModule } from './generators/validators.js';

const OUT = join(ROOT, 'src/generated');

function write(path: string, text: string): void {
  mkdirSync(join(OUT, path, '..'), { recursive: true });
  writeFileSync(join(OUT, path), text);
}

async function generate(): Promise<void> {
  const resources = await loadResources();
  const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
  rmSync(OUT, { recursive: true, force: true });
  const helpers = new Set<string>();
  for (const resource of resources) {
    write(`validators/${resource.module}.ts`, validatorModule(resource.definition, helpers));
    write(`schemas/${resource.module}.ts`, schemaModule(resource));
    write(`mappings/${resource.module}.ts`, mappingModule(resource));
  }
  if (helpers.size) write('ajv-runtime.ts', ajvRuntimeModule(helpers));
  write('resources.ts', resourcesModule(resources));
  write('schemas.ts', schemasModule(resources));
  write('openapi.ts', `${HEADER}\nexport const OPENAPI = ${JSON.stringify(JSON.stringify(openapiDocument(resources, version)))};\n`);
}

await generate();
