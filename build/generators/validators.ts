// One ajv standalone validator module per resource, checked on every write: the closed request
// schemas, what the create and merge-patch schemas share compiled once, and ajv's runtime helpers
// emitted once as ESM.
import { createRequire } from 'node:module';
import Ajv from 'ajv';
import standaloneCode from 'ajv/dist/standalone/index.js';
import { holdsRequired, resourceObject, withNull, type Properties } from '../../src/openapi/members.js';
import type { DocField, JsonSchema, ResourceDoc } from '../../src/resources/model.js';
import { HEADER } from './inventory.js';
import { slimmed } from './patterns.js';

// The ajv runtime helpers a validator may need whose source is one self-contained function.
const INLINABLE_HELPERS = ['ucs2length', 'equal'];
// The engine builds error messages itself; shared schemas are referenced, not inlined.
export const AJV_OPTIONS = { strict: true, allErrors: true, messages: false, inlineRefs: false } as const;

/**
 * The ajv schemas of a resource: `full` (create and PUT bodies) and `patch` (merge-patch deltas).
 * Objects are closed; the members a read carries besides the fields are tolerated so that a read
 * can be sent back. null clears a field, so a required one never takes it, nor does a group holding one.
 */
export function validatorSchemas(doc: ResourceDoc): { full: JsonSchema; patch: JsonSchema } {
  const level = (full: boolean) => (fields: Record<string, DocField>, tolerated: Properties = {}): JsonSchema => {
    const properties: Properties = { ...tolerated };
    const required: string[] = [];
    for (const [name, field] of Object.entries(fields)) {
      properties[name] = field.required ? field.schema : withNull(field.schema);
      if (field.secret) properties[`has_${name}`] = { type: 'boolean' };
      if (full && field.required) required.push(name);
    }
    return { type: 'object', additionalProperties: false, properties, ...(required.length ? { required } : {}) };
  };
  const tolerated: Properties = doc.kind === 'collection' ? { id: { type: 'string' }, managed: {}, runtime: {} } : { runtime: {} };
  const build = (full: boolean) =>
    resourceObject(doc, level(full), tolerated, (object, member) => ({
      schema: holdsRequired(member) ? object : withNull(object),
      required: object.required !== undefined,
    }));
  return { full: build(true), patch: build(false) };
}

const isObjectLevel = (schema: JsonSchema) => schema.properties !== undefined;
const propertiesOf = (schema: JsonSchema) => schema.properties as Properties;

/**
 * `full` and `patch` with what they share compiled once (ajv `inlineRefs: false`): an object level
 * both hold alike, and a field schema with more than a type that two object levels hold, move to
 * the `$defs` of the `defs` schema and are referenced from there.
 */
export function sharedSchemas(full: JsonSchema, patch: JsonSchema): { defs: Properties; full: JsonSchema; patch: JsonSchema } {
  const levelUses = new Map<string, number>();
  const levels: JsonSchema[] = [];
  const collect = (level: JsonSchema) => {
    const text = JSON.stringify(level);
    levelUses.set(text, (levelUses.get(text) ?? 0) + 1);
    if (levelUses.get(text) !== 1) return;
    levels.push(level);
    Object.values(propertiesOf(level)).filter(isObjectLevel).forEach(collect);
  };
  collect(full);
  collect(patch);
  const fieldUses = new Map<string, number>();
  for (const schema of levels.flatMap((level) => Object.values(propertiesOf(level)))) {
    const text = JSON.stringify(schema);
    if (!isObjectLevel(schema) && Object.keys(schema).some((keyword) => keyword !== 'type')) fieldUses.set(text, (fieldUses.get(text) ?? 0) + 1);
  }
  const defs: Properties = {};
  const names = new Map<string, string>();
  const reference = (schema: JsonSchema): JsonSchema => {
    const text = JSON.stringify(schema);
    let name = names.get(text);
    if (name === undefined) {
      name = `d${names.size}`;
      names.set(text, name);
      defs[name] = schema;
    }
    return { $ref: `defs#/$defs/${name}` };
  };
  const share = (level: JsonSchema): JsonSchema => {
    const properties: Properties = {};
    for (const [name, schema] of Object.entries(propertiesOf(level))) {
      const uses = (isObjectLevel(schema) ? levelUses : fieldUses).get(JSON.stringify(schema)) ?? 0;
      const own = isObjectLevel(schema) ? share(schema) : schema;
      properties[name] = uses > 1 ? reference(own) : own;
    }
    return { ...level, properties };
  };
  return { defs, full: share(full), patch: share(patch) };
}

/**
 * ajv's standalone ESM still `require`s its runtime helpers. They are CommonJS, which neither the
 * QuickJS bundle nor Node's ESM loader would import alike, so each is emitted once as ESM into
 * ajv-runtime.ts and imported from there.
 */
export function validatorModule(doc: ResourceDoc, helpers: Set<string>, patternIndex: Map<string, number>): string {
  const plain = validatorSchemas(doc);
  const { defs, full, patch } = sharedSchemas(plain.full, plain.patch);
  // Without required fields a patch is checked as a whole body is: one function serves both.
  const patchIsFull = JSON.stringify(full) === JSON.stringify(patch);
  const ajv = new Ajv({ ...AJV_OPTIONS, code: { source: true, esm: true } });
  ajv.addSchema({ $defs: defs }, 'defs').addSchema(full, 'full');
  if (!patchIsFull) ajv.addSchema(patch, 'patch');
  const imports: string[] = [];
  let code = standaloneCode(ajv, patchIsFull ? { validateFull: 'full' } : { validateFull: 'full', validatePatch: 'patch' }).replace(
    /const (\w+) = require\("ajv\/dist\/runtime\/(\w+)"\)\.default;/g,
    (_statement, local: string, helper: string) => {
      if (!INLINABLE_HELPERS.includes(helper)) throw new Error(`${doc.path}: the validator needs ajv's ${helper}, which is not inlinable`);
      helpers.add(helper);
      imports.push(`import { ${helper} as ${local} } from '../ajv-runtime.js';\n`);
      return '';
    },
  );
  if (code.includes('require(')) throw new Error(`${doc.path}: the validator requires a module: ${/require\([^)]*\)/.exec(code)![0]}`);
  code = code.replace(/^"use strict";/, '').replace(/export const (validateFull|validatePatch) = (\w+);/g, 'export const $1: SchemaValidator = $2;');
  if (patchIsFull) code += '\nexport const validatePatch: SchemaValidator = validateFull;';
  code = slimmed(code, patternIndex);
  return `// @ts-nocheck\n${HEADER}import type { SchemaValidator } from '../../resources/model.js';\n${imports.join('')}${code}\n`;
}

export function ajvRuntimeModule(helpers: Set<string>): string {
  const require = createRequire(import.meta.url);
  const functions = [...helpers].sort().map((helper) => `export const ${helper} = ${String(require(`ajv/dist/runtime/${helper}`).default)};\n`);
  return `// @ts-nocheck\n${HEADER}${functions.join('')}`;
}
