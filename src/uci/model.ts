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

/** A type libuci accepts and `uci commit` writes back unchanged. */
export function isWritableType(type: string): boolean {
  return isValidType(type) && !TYPE_UNSAFE_TO_WRITE.test(type);
}

export function findSection(pkg: UciPackage, name: string): UciSection | undefined {
  return pkg.sections.find((section) => section.name === name);
}

/** A section with options and lists of its own, to change without changing the original. */
export function copySection(section: UciSection): UciSection {
  return { ...section, options: new Map([...section.options].map(([name, value]) => [name, Array.isArray(value) ? [...value] : value])) };
}

/** Appends a new named section. */
export function addSection(pkg: UciPackage, type: string, name: string): UciSection {
  if (!isWritableType(type)) throw new Error(`invalid section type '${type}'`);
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
