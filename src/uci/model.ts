// A UCI package as libuci holds it in memory: sections in file order, each with its options and
// lists in file order (a Map keeps insertion order; a list is a string[]).

export type UciValue = string | string[];

export interface UciSection {
  type: string;
  name: string;
  anonymous: boolean;
  options: Map<string, UciValue>;
}

export interface UciPackage {
  sections: UciSection[];
}

const NAME = /^[A-Za-z0-9_]+$/;
const TYPE = /^[!-~]+$/;
// libuci writes the type unquoted, escaping only `'` (as `'\''`), so a type holding any of these
// would read back as something else.
const TYPE_UNSAFE_TO_WRITE = /['"#;\\]/;

/** A section or option name as libuci accepts it (uci_validate_name). */
export function isValidName(name: string): boolean {
  return NAME.test(name);
}

/** A section type as libuci accepts it (uci_validate_type): printable ASCII without spaces. */
export function isValidType(type: string): boolean {
  return TYPE.test(type);
}

/**
 * The name libuci gives an anonymous section (uci_fixup_section): `cfg`, the package's section
 * counter in at least two hex digits, then the low 16 bits of the djb2 hash of the type.
 * `position` counts every section created in the package so far, named ones included, this one
 * too: the first section of a file is 1.
 */
export function anonymousName(type: string, position: number): string {
  let hash = 5381;
  for (let i = 0; i < type.length; i++) hash = (hash * 33 + type.charCodeAt(i)) >>> 0;
  return 'cfg' + position.toString(16).padStart(2, '0') + (hash & 0xffff).toString(16).padStart(4, '0');
}

/** Where and why libuci's parser refuses a file. */
export class UciSyntaxError extends Error {
  readonly line: number;
  readonly reason: string;

  constructor(line: number, reason: string) {
    super(`line ${line}: ${reason}`);
    this.name = 'UciSyntaxError';
    this.line = line;
    this.reason = reason;
  }
}

/**
 * Fills a package the way libuci's parser does, one `config`, `option` or `list` at a time.
 * `config` answers false when a section of another type already holds the name, `option` when no
 * section is open yet: both are errors libuci reports.
 */
export function packageBuilder() {
  const pkg: UciPackage = { sections: [] };
  const byName = new Map<string, UciSection>();
  let open: UciSection | undefined;
  return {
    pkg,
    isOpen: () => open !== undefined,
    config(type: string, name: string): boolean {
      const existing = name === '' ? undefined : byName.get(name);
      if (existing) {
        if (existing.type !== type) return false;
        open = existing;
        return true;
      }
      // libuci counts every section it creates, named or not; a reopened named section is not new.
      const anonymous = name === '';
      open = { type, name: anonymous ? anonymousName(type, pkg.sections.length + 1) : name, anonymous, options: new Map() };
      pkg.sections.push(open);
      if (!byName.has(open.name)) byName.set(open.name, open);
      return true;
    },
    option(name: string, value: string, list: boolean): boolean {
      if (!open) return false;
      const current = open.options.get(name);
      if (list) {
        if (current === undefined) open.options.set(name, [value]);
        else if (typeof current === 'string') open.options.set(name, [current, value]);
        else current.push(value);
      } else if (value !== '') {
        // uci_set() with an empty value on the parser's pointer changes nothing: the option is
        // neither created nor cleared.
        open.options.set(name, value);
      }
      return true;
    },
  };
}

export function findSection(pkg: UciPackage, name: string): UciSection | undefined {
  return pkg.sections.find((section) => section.name === name);
}

/** Appends a new named section. */
export function addSection(pkg: UciPackage, type: string, name: string): UciSection {
  if (!isValidType(type) || TYPE_UNSAFE_TO_WRITE.test(type)) throw new Error(`invalid section type '${type}'`);
  checkNewName(pkg, name);
  const section: UciSection = { type, name, anonymous: false, options: new Map() };
  pkg.sections.push(section);
  return section;
}

/** Gives a section a new name in place; an anonymous section becomes named (adopted). */
export function renameSection(pkg: UciPackage, name: string, newName: string): UciSection {
  const section = findSection(pkg, name);
  if (!section) throw new Error(`no section '${name}'`);
  checkNewName(pkg, newName);
  section.name = newName;
  section.anonymous = false;
  return section;
}

/** Removes a section; false when there is none of that name. */
export function removeSection(pkg: UciPackage, name: string): boolean {
  const index = pkg.sections.findIndex((section) => section.name === name);
  if (index === -1) return false;
  pkg.sections.splice(index, 1);
  return true;
}

function checkNewName(pkg: UciPackage, name: string): void {
  if (!isValidName(name)) throw new Error(`invalid section name '${name}'`);
  if (findSection(pkg, name)) throw new Error(`section '${name}' already exists`);
}
