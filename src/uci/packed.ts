// A package as plain data, the form Ports.derived keeps between requests: its own module, so that
// what reads a package without keeping it (healthz) does not load it.

import type { UciPackage, UciValue } from './model.js';
import { anonymousName } from './read.js';

/**
 * A package as plain data, the form Ports.derived keeps (QuickJS writes no Map): per section its
 * type, name and whether it is anonymous, then each option's name and value in turn. Flat: an
 * array per option costs QuickJS more to read back than the Map it becomes.
 */
export type PackedPackage = (string | boolean | string[])[][];

/**
 * With `asRead`, what reading serializeUci(pkg)'s text gives, without reading it: each anonymous
 * section named by its place, as libuci names it on reading. No empty option or list either way:
 * the text does not hold one, and reading never makes one.
 */
export function packPackage(pkg: UciPackage, asRead = false): PackedPackage {
  return pkg.sections.map((section, index) => {
    const packed: PackedPackage[number] = [section.type, asRead && section.anonymous ? anonymousName(section.type, index + 1) : section.name, section.anonymous];
    // forEach: for-of makes QuickJS build and take apart an array for every option.
    section.options.forEach((value, name) => value.length && packed.push(name, value));
    return packed;
  });
}

export function unpackPackage(packed: PackedPackage): UciPackage {
  return {
    sections: packed.map((row) => {
      const options = new Map<string, UciValue>();
      for (let i = 3; i < row.length; i += 2) options.set(row[i] as string, row[i + 1] as UciValue);
      return { type: row[0] as string, name: row[1] as string, anonymous: row[2] as boolean, options };
    }),
  };
}
