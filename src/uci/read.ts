// Reading a package. Most files are exactly as `uci commit` wrote them, and those read here with
// one regular expression and a split. Anything else (a file shipped by a package, hand edits) loads
// the full libuci tokenizer of parse.ts, which every request would otherwise compile. Both fill a
// package through the same builder, so they cannot disagree on names or reopened sections.

import { packageBuilder } from './builder.js';
import type { UciPackage } from './model.js';

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

/** A package's text read as libuci reads it; throws UciSyntaxError where libuci would refuse it. */
export async function readUci(text: string): Promise<UciPackage> {
  return parseCanonical(text) ?? (await import('./parse.js')).parseUci(text);
}
