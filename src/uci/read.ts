// The part of reading a package every request compiles: files exactly as `uci commit` wrote them
// read here with one regular expression and a split, and the builder that parse.ts, the full libuci
// tokenizer, fills packages through too, so the two cannot disagree on names or reopened sections.

import type { UciPackage, UciSection } from './model.js';

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
      if (!list) {
        // uci_set() with an empty value on the parser's pointer changes nothing: the option is
        // neither created nor cleared.
        if (value !== '') open.options.set(name, value);
        return true;
      }
      const current = open.options.get(name);
      if (current === undefined) open.options.set(name, [value]);
      else if (typeof current === 'string') open.options.set(name, [current, value]);
      else current.push(value);
      return true;
    },
  };
}

// Blank lines, `config <type>` with an optional quoted name, and tab-indented options and lists
// whose values hold no quote, newline or NUL.
const CANONICAL = /^(?:(?:\t(?:option|list) [A-Za-z0-9_]+ '[^'\n\0]*'|config [A-Za-z0-9_-]+(?: '[A-Za-z0-9_]+')?)?\n)*$/;

/** The package when every line is in `uci commit`'s form and libuci would accept it, else undefined. */
export function parseCanonical(text: string): UciPackage | undefined {
  if (!CANONICAL.test(text)) return undefined;
  const builder = packageBuilder();
  for (const line of text.split('\n')) {
    if (line[0] === 'c') {
      const space = line.indexOf(' ', 7);
      if (!builder.config(line.slice(7, space < 0 ? undefined : space), space < 0 ? '' : line.slice(space + 2, -1))) return undefined;
    } else if (line) {
      const start = line[1] === 'o' ? 8 : 6;
      const space = line.indexOf(' ', start);
      if (!builder.option(line.slice(start, space), line.slice(space + 2, -1), start === 6)) return undefined;
    }
  }
  return builder.pkg;
}
