import type { FieldError } from '../http/errors.js';
import type { UciPackage } from '../uci/index.js';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };
export type JsonSchema = { [key: string]: unknown };

/**
 * How one UCI option maps to one JSON value, as data: the build copies it into the tables that reads
 * load, and `readOption`/`writeOption` in options.ts interpret it.
 */
export type Codec =
  | { kind: 'text' | 'integer' | 'firewall4Family' }
  | { kind: 'list'; listOnly?: boolean; singleAsOption?: boolean; joined?: boolean }
  | { kind: 'boolean'; truthy: string[]; falsy?: string[]; otherwise?: boolean }
  | { kind: 'flagOrText'; truthy: string[]; falsy: string[] }
  | { kind: 'choice'; values: string[]; prefixes?: boolean };

/** What the engine needs of a field at run time. */
export interface MappedField {
  codec: Codec;
  /** The UCI option; the JSON name when omitted. */
  option?: string;
  /** Must be present (and not null) on create and on PUT. */
  required?: boolean;
  /** Write-only: never returned; reads carry `has_<name>` instead, and an omitted value is kept. */
  secret?: boolean;
}

export interface Field extends MappedField {
  /** The JSON schema of a written value (null is added by the generator where a field may be cleared). */
  schema: JsonSchema;
  description?: string;
}

/** A JSON object whose members are options of the same section (for example a rule's `match`). */
export interface MappedGroup {
  fields: Record<string, MappedField>;
}

export interface Group extends MappedGroup {
  fields: Record<string, Field>;
  description?: string;
}

export type MappedMember = MappedField | MappedGroup;
export type Member = Field | Group;

export function isGroup<T extends object>(member: T): member is Extract<T, { fields: unknown }> {
  return 'fields' in member;
}

/** The value at a dotted path of member names or array indexes (`match.src_port`, `dns.0`). */
export function valueAt(body: Json | undefined, path: string): Json | undefined {
  let value = body;
  for (const name of path.split('.')) value = value !== null && typeof value === 'object' ? (value as JsonObject)[name] : undefined;
  return value;
}

/** A zone, interface or other section that a field's value must name. */
export interface Reference {
  /** Dotted JSON path of the referring field, e.g. `match.src_zone`. */
  field: string;
  package: string;
  type: string;
  /** The option of the referenced section that holds the name; its section name when omitted. */
  by?: string;
  /** Values that refer to nothing and are always accepted, such as `*` for any zone. */
  except?: string[];
}

export interface RuleContext {
  /** Packages as staged by this write, for checks across sections: its own, the referenced ones and `reads`. */
  read(pkg: string): UciPackage;
  /** The id of the section written; a rule comparing a section with its siblings skips it. */
  id?: string;
  /** A router file's text (names a daemon resolves from /etc/iproute2/rt_tables), undefined when absent. */
  file(path: string): string | undefined;
}

/**
 * A resource over several section types, told apart by one of its fields: netifd keeps IPv4 and
 * IPv6 routes in `route` and `route6` sections, wireguard peers in `wireguard_<interface>`. The
 * field is no option: a read takes it from the section type, a write sets the type from it.
 */
export interface TypeBy {
  field: string;
  /** The section type of each value of the field. */
  types?: Record<string, string>;
  /** Or: the section type is this prefix and the field's value. */
  prefix?: string;
}

/**
 * What reads and writes need of a definition at run time. The build generates one per resource,
 * without schemas and descriptions, so that a read parses only this.
 */
export interface ResourceMapping {
  /** `<domain>/<subresource>`, or `<domain>` for a singleton domain such as `system`. */
  path: string;
  package: string;
  /** The UCI section type. */
  type: string;
  kind: 'collection' | 'singleton';
  /** One character and `_`, prefixed to generated ids (`r_` for rules). */
  idPrefix?: string;
  /** Init scripts reloaded after a write, in order. */
  reload: string[];
  /** The daemon is a separate package: a write without its init script is `503 init_script_missing`. */
  daemonPackage?: boolean;
  members: Record<string, MappedMember>;
  references?: Reference[];
  /** Packages the rules read besides its own and the referenced ones: a write locks and snapshots them too. */
  reads?: string[];
  /** The only section ids a collection may hold, for a daemon that reads fixed names (sysntpd's `ntp`). */
  ids?: string[];
  /** With it, `type` is the first of the section types the resource serves. */
  typeBy?: TypeBy;
}

/**
 * Cross-field rules on the whole merged body; they run after the schema check. A definition file
 * also exports its rules as `rules`, which is all a write loads of it: the bundle then leaves the
 * schemas and descriptions, which only the build reads, out of the chunk.
 */
export type Rules = (body: JsonObject, context: RuleContext) => FieldError[];

export interface ResourceDefinition extends ResourceMapping {
  description: string;
  members: Record<string, Member>;
  rules?: Rules;
  /** What `rules` check, one statement each, naming the fields in backticks: the document states them. */
  checks?: string[];
}

/**
 * What the OpenAPI document, the `/schema` answers and the body checks need of a field: the build
 * derives it from the definition, and the document is assembled from it at request time.
 */
export interface DocField {
  schema: JsonSchema;
  description?: string;
  required?: boolean;
  secret?: boolean;
  /** A read answers null for a stored value its codec cannot represent. */
  nullable?: boolean;
  /** A read always carries the field, set or not (a list reads `[]`). */
  always?: boolean;
}

export interface DocGroup {
  fields: Record<string, DocField>;
  description?: string;
}

/** A resource as the OpenAPI document and `/schema` describe it: one generated module each. */
export interface ResourceDoc {
  path: string;
  kind: ResourceDefinition['kind'];
  type: string;
  description: string;
  members: Record<string, DocField | DocGroup>;
  /** The rules a write is held to beyond the schema: the definition's checks and its references. */
  checks: string[];
  /** What a DELETE is refused for: the fields of other resources that name this one's sections. */
  referencedBy: string[];
  /** The only ids the collection may hold (its definition's `ids`). */
  ids?: string[];
}

/** A body's schema error, in ajv's shape: the part the engine maps to field errors. */
export interface SchemaError {
  instancePath: string;
  keyword: string;
  params: Record<string, unknown>;
}

/** The generated module of one resource: its mapping, and loaders for what only writes need. */
export interface ResourceModule {
  mapping: ResourceMapping;
  /** The definition's cross-field rules, loaded without the rest of it. */
  rules: () => Promise<Rules | undefined>;
  /** The resource's doc, which a write's body is checked against. */
  doc: () => Promise<{ doc: ResourceDoc }>;
}

/** One row of the generated resource table: enough to route, the rest loaded on demand. */
export interface ResourceEntry {
  path: string;
  kind: ResourceDefinition['kind'];
  package: string;
  type: string;
  scope: { domain: string; sub?: string };
  /** Paths of the resources whose references name sections of this one. */
  referencedBy?: string[];
  module: () => Promise<ResourceModule>;
}
