// What both readers share: the package builder that fills sections as libuci's parser does, the
// names libuci gives anonymous sections, and the error it reports.

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
