// The /schema answers: the index of keys and one module per resource, loaded only by its route.
import { HEADER, type Resource } from './inventory.js';
import { schemaProperties } from './members.js';

export function schemasModule(resources: Resource[]): string {
  const rows = resources.map(({ key, module }) => `  ${JSON.stringify(key)}: () => import(${JSON.stringify(`./schemas/${module}.js`)}),`);
  return `${HEADER}\nexport const SCHEMAS: Record<string, () => Promise<{ default: unknown }>> = {\n${rows.join('\n')}\n};\n`;
}

export function schemaModule(resource: Resource): string {
  const answer = { key: resource.key, schema_properties: schemaProperties(resource.definition) };
  return `${HEADER}\nexport default ${JSON.stringify(answer, null, 2)};\n`;
}
