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
  | { kind: 'text' | 'firewall4Family' }
  | { kind: 'integer'; c?: boolean; orText?: boolean }
  | { kind: 'words'; joinedBy?: string }
  | { kind: 'list'; listOnly?: boolean; singleAsOption?: boolean; joined?: boolean | string; whole?: boolean }
  | { kind: 'boolean'; truthy: string[]; falsy?: string[]; otherwise?: boolean; truthyPrefix?: string; spelled?: [string, string] }
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
  /** Read-only: another view of an option a writable field holds (the legacy scalar `ipaddr`); ignored in a write. */
  readOnly?: boolean;
  /** Read only while it applies: a daemon reads the option only then, or gives it another meaning. A list reads `[]` otherwise. */
  when?: When;
  /**
   * Values the daemon takes from another field, never from this option (a rule's action `lookup` is
   * its `lookup` table; netifd refuses the word): such a value writes no option, and an absent option
   * reads as the first value whose field the body holds.
   */
  implied?: Record<string, string>;
  /**
   * What a write stores for a top-level field the daemon needs and a client may leave out (a
   * wifi-iface's mode, a word of an snmpd access line): a create that omits it, and a write that
   * would clear one the section holds, store this; a section stored without one keeps none.
   */
  default?: Json;
}

export interface Field extends MappedField {
  /** A view's field that a line may leave empty: it reads null then (a view's fields are always present). */
  nullable?: boolean;
  /** The JSON schema of a written value (null is added by the generator where a field may be cleared). */
  schema: JsonSchema;
  description?: string;
}

/** A JSON object whose members are options of the same section (for example a rule's `match`). */
/** A member applies only while another field has one of some values (a proto's options). */
export interface When {
  field: string;
  values: string[];
}

export interface MappedGroup {
  fields: Record<string, MappedField>;
  /** Read only while it applies: daemons give the options of different groups different meanings. */
  when?: When;
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

/** Whether a member with a `when` applies to a body (one without applies always). */
export function applies(when: When | undefined, body: JsonObject): boolean {
  if (!when) return true;
  const value = body[when.field];
  return typeof value === 'string' && when.values.includes(value);
}

/** The value at a dotted path of member names or array indexes (`match.src_port`, `dns.0`). */
export function valueAt(body: Json | undefined, path: string): Json | undefined {
  let value = body;
  for (const name of path.split('.')) value = value !== null && typeof value === 'object' ? (value as JsonObject)[name] : undefined;
  return value;
}

/** A zone, interface or other section that a field's value must name. */
export interface Reference {
  /** Dotted JSON path of the referring field, e.g. `match.src_zone`; `id` for the section's own name (an mwan3 interface is named after a network interface). */
  field: string;
  package: string;
  type: string;
  /** The option of the referenced section that holds the name; its section name when omitted. */
  by?: string;
  /** Values that refer to nothing and are always accepted, such as `*` for any zone. */
  except?: string[];
  /** A prefix that negates a name (`!lan` in a zone's networks): the name after it is what is named. */
  negation?: string;
  /**
   * The named section need not exist (an interface's device may be a plain kernel device), but one
   * that does cannot be removed while it is named.
   */
  guardOnly?: boolean;
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
 * Where a resource's `runtime` comes from: one `ubus call` per request, whose answer holds an item per
 * section. `items` is the path to them: a member name (an array's items, or one object), or `*` for
 * every member of an object. `key` is the item member holding the section id, or `*` for the name of
 * the member the item is. `fields` are the members kept, all when omitted. `each` are calls made
 * further for each section read whose runtime has what their message needs.
 */
export interface RuntimeSource {
  object: string;
  method: string;
  items: string[];
  key: string;
  fields?: string[];
  each?: ItemCall[];
}

/**
 * A `ubus call` per section read (iwinfo about one interface). `message` names, for each member of
 * the call's message, the runtime member (one of `fields`) whose value it takes: a section without
 * one is not asked (an interface not set up has no `ifname`). `fields` gives each runtime member
 * the dotted path of its value in the answer; an array's `length` counts it. A call that fails adds
 * nothing.
 */
export interface ItemCall {
  object: string;
  method: string;
  message: Record<string, string>;
  fields: Record<string, string>;
}

/**
 * Where a read-only view's lines come from: the file the option names in the first section of the
 * definition's `package` and `type`, `default` when the option is unset. No section of the type, or
 * neither option nor default: nothing is configured to write the file, and the view is empty.
 */
export interface ViewSource {
  option: string;
  default?: string;
}

/**
 * A view's last member, left out by its parser and computed by the read from the clock: seconds until
 * the item's `until` (epoch seconds), at least 0, or null. A page then depends on its file alone.
 */
export interface Countdown {
  member: string;
  until: string;
}

/**
 * A view's line parser, which its definition exports as `parse`: the items one line holds (each with
 * its stable `id`, [A-Za-z0-9_]), [] for a line that holds none by design (a comment, a line of a kind
 * the view leaves out), null for a malformed line, which the read skips and counts.
 */
export type LineParser = (line: string) => JsonObject[] | null;

/**
 * Live state a definition computes from the router's files rather than a bus call (which `runtime`
 * names), exported as `runtimeOf`: each read body's runtime by id. `now`: epoch seconds.
 */
export type RuntimeOf = (bodies: JsonObject[], context: { read(pkg: string): Promise<UciPackage>; file(path: string): string | undefined; now: number }) => Promise<Map<string, Json>>;

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
  /**
   * A body that leaves the field out (or null) takes the family of the first address literal among
   * these fields (`ipv6` for one with a `:`, `ipv4` for a dotted quad; a host name tells none): a
   * route's from its target (engine/write.ts completed). Without one, a PUT keeps the section's type.
   */
  family?: string[];
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
  /** A `view` is read-only state parsed from a file (`source`), not UCI sections: GET only. */
  kind: 'collection' | 'singleton' | 'view';
  /** A view's file. */
  source?: ViewSource;
  countdown?: Countdown;
  /** One character and `_`, prefixed to generated ids (`r_` for rules). */
  idPrefix?: string;
  /** Init scripts reloaded after a write, in order. */
  reload: string[];
  /**
   * The package that installs the reloaded init script, when it is not in a stock image (unbound's
   * `unbound-daemon`): the `503 init_script_missing` of a write without it names the package.
   */
  daemonPackage?: string;
  members: Record<string, MappedMember>;
  references?: Reference[];
  /** Packages the rules read besides its own and the referenced ones: a write locks and snapshots them too. */
  reads?: string[];
  /** The only section ids a collection may hold, for a daemon that reads fixed names (sysntpd's `ntp`). */
  ids?: string[];
  /**
   * A singleton's section name, for a daemon that reads its section by name (lldpd's `config`): the
   * resource is the section of `type` with this name, and a write creates it so when it is absent.
   * Without it a singleton is the first section of `type`, created with the type's name.
   */
  section?: string;
  /** With it, `type` is the first of the section types the resource serves. */
  typeBy?: TypeBy;
  /** Live state a read adds to each item as `runtime`, outside the ETag. */
  runtime?: RuntimeSource;
  /**
   * Writes that may cut the caller's own path get X-Mgmt-Path-Warning: matched by section id
   * against the caller's interface when `fields` (the changes that count) are given, else by the
   * device the `device` field names against the caller's device.
   */
  mgmtPath?: { fields?: string[]; device?: string };
  /** After the reload, the change is applied to the running kernel too (spec write step 7): wireguard peers. */
  kernel?: 'wireguard';
  /**
   * A field given while its `when` does not apply is refused (`conflict`), not dropped: a body that
   * changes proto must clear the old proto's fields (netifd's handlers give option names their own meanings).
   */
  strictWhen?: true;
  /**
   * While `field` holds none of `values` (a proto the resource does not model), a PUT keeps the
   * options the resource does not model, which that handler reads: such a section still round-trips.
   */
  openUnless?: When;
  /**
   * A generated id of another form, `prefix` and random characters to `length` in all: for the
   * sections `when` selects (a wireguard interface's id is its kernel device name), or for every
   * section without it (mwan3 skips a policy or rule whose name passes 15 characters). Adopt
   * generates ids alike.
   */
  shortIds?: { when?: When; prefix: string; length: number };
  /** Sections a DELETE refuses (409 `conflict`), by id, with what removing them would break. */
  undeletable?: Record<string, string>;
  /**
   * Its rules guard the router rather than the form (uhttpd's `main` keeps serving this API): a raw
   * write of a section of its type is held to them too, on the section's curated view.
   */
  guardsRaw?: true;
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
  /** A view's line parser, exported as `parse` too. */
  parse?: LineParser;
  /** Live state computed from files, exported as `runtimeOf` too. */
  runtimeOf?: RuntimeOf;
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
  /** Another view of an option a writable field holds: in reads only. */
  readOnly?: boolean;
  /** Read only while another field has one of these values. */
  when?: When;
  /** A read always carries the field, set or not (a list reads `[]`). */
  always?: boolean;
}

export interface DocGroup {
  fields: Record<string, DocField>;
  description?: string;
  when?: When;
}

/** A resource as the OpenAPI document and `/schema` describe it: one generated module each. */
export interface ResourceDoc {
  path: string;
  kind: ResourceDefinition['kind'];
  type: string;
  description?: string;
  members: Record<string, DocField | DocGroup>;
  /** The rules a write is held to beyond the schema: the definition's checks and its references. */
  checks: string[];
  /** What a DELETE is refused for: the fields of other resources that name this one's sections. */
  referencedBy: string[];
  /** The only ids the collection may hold (its definition's `ids`). */
  ids?: string[];
  /** Its writes may carry X-Mgmt-Path-Warning. */
  mgmtPath?: boolean;
  /** The definition's `undeletable`: the ids a DELETE refuses, and why. */
  undeletable?: Record<string, string>;
}

/** A group of a generated doc: its fields listed in the mapping's order. */
export interface GeneratedGroup extends Omit<DocGroup, 'fields'> {
  fields: DocField[];
}

/**
 * A resource's doc as the build writes it: its members listed in the order of the resource's
 * mapping, which holds their names, so that the names live once: a tenth off the docs, compressed.
 * A field's `when` lives in the mapping only too. `openapi/resource-doc.ts` puts both back. A view's mapping has no members, as its parser fills
 * its items: its doc names them.
 */
export interface GeneratedDoc extends Omit<ResourceDoc, 'members'> {
  members: (DocField | GeneratedGroup)[] | ResourceDoc['members'];
}

/**
 * What raw passthrough knows of a package some curated resource serves (generated from the
 * definitions): a change reloads `reload`, which `provider` installs where it is no stock package;
 * a section of one of `types` needs its resource's scope too and never shows its secret options.
 * A type ending in `*` is a prefix (`wireguard_*`); a type maps to its resource's path, or to the
 * path followed by the secret options.
 */
export interface RawPackage {
  reload: string[];
  provider?: string;
  types: Record<string, string | string[]>;
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
  /** The resource's generated doc, which a write's body is checked against once made whole (`openapi/resource-doc.ts`). */
  doc: () => GeneratedDoc;
  /** A view's line parser, loaded without the rest of its definition. */
  parser?: () => Promise<LineParser>;
  /** The definition's own live state, loaded without the rest of it. */
  runtimeOf?: () => Promise<RuntimeOf>;
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
