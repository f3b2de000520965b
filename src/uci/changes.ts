// A change to a package as `uci changes` prints it (libuci's cli.c, uci_show_changes): one line per
// delta, `-` before a removal, `+=` for a list item added, every value in single quotes.
import { copySection, type UciPackage, type UciSection, type UciValue } from './model.js';

/** Each section of a package, by the section object, with a copy of it as it was when recorded. */
export type Recorded = Map<UciSection, UciSection>;

/** The package's sections as they are now, to compare with what a change in place makes of them. */
export function recordSections(pkg: UciPackage): Recorded {
  return new Map(pkg.sections.map((section) => [section, copySection(section)]));
}

/** A value as the command line quotes it (cli.c uci_print_value): a quote inside as `'\''`. */
function quoted(value: string): string {
  return `'${value.split("'").join("'\\''")}'`;
}

function same(a: UciValue, b: UciValue): boolean {
  return typeof a === 'string' || typeof b === 'string' ? a === b : a.length === b.length && a.every((item, i) => item === b[i]);
}

/** The lines of one option, from what it was (absent: undefined) to what it is. */
function optionLines(at: string, before: UciValue | undefined, after: UciValue): string[] {
  if (typeof after === 'string') return [`${at}=${quoted(after)}`];
  // add_list appends to a list, and to a plain option, which it turns into a list's first item.
  const kept = before === undefined ? [] : typeof before === 'string' ? [before] : before;
  const grows = kept.length < after.length && kept.every((item, i) => item === after[i]);
  const added = (from: number) => after.slice(from).map((item) => `${at}+=${quoted(item)}`);
  if (before === undefined || grows) return added(kept.length);
  return [`-${at}`, ...added(0)];
}

/**
 * The lines `uci changes <pkg>` prints after the commands that turn the recorded package into
 * `after`, which the change made in place (so a section keeps its object through a rename):
 * `-pkg.section` for each section removed; then, in the package's order, for a new section
 * `pkg.section='type'` and its options; for a renamed one (an anonymous section adopted)
 * `pkg.<old name>='<new name>'`, as libuci prints a rename; `pkg.section='type'` for a changed type;
 * `-pkg.section.option` for each option removed, `pkg.section.option='value'` for each one set, and
 * for a list `+='item'` for each item appended, after the option's removal when it did not just grow.
 * A secret option (`secretsOf` a section) is never shown nor compared: `=<redacted>` when it appears,
 * its removal when it goes, and nothing when it is replaced, which would tell a guess of it from the stored one.
 */
export function uciChanges(pkg: string, recorded: Recorded, after: UciPackage, secretsOf: (section: UciSection) => string[] = () => []): string[] {
  const present = new Set(after.sections);
  const lines: string[] = [];
  for (const [section, was] of recorded) if (!present.has(section)) lines.push(`-${pkg}.${was.name}`);
  for (const section of after.sections) {
    const was = recorded.get(section);
    const at = `${pkg}.${section.name}`;
    if (!was) lines.push(`${at}=${quoted(section.type)}`);
    else {
      if (was.name !== section.name) lines.push(`${pkg}.${was.name}=${quoted(section.name)}`);
      if (was.type !== section.type) lines.push(`${at}=${quoted(section.type)}`);
      for (const option of was.options.keys()) if (!section.options.has(option)) lines.push(`-${at}.${option}`);
    }
    const secrets = secretsOf(section);
    for (const [option, value] of section.options) {
      const before = was?.options.get(option);
      if (secrets.includes(option)) {
        if (before === undefined) lines.push(`${at}.${option}=<redacted>`);
      } else if (before === undefined || !same(before, value)) lines.push(...optionLines(`${at}.${option}`, before, value));
    }
  }
  return lines;
}
