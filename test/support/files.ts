// Reading what a write left in a configuration file.

/** One section as `text` holds it, from its `config` line (`header`) to its last option. */
export function sectionText(text: string, header: string): string | undefined {
  return new RegExp(`(?:^|\\n)(${header}\\n(?:\\t[^\\n]*\\n)*)`).exec(text)?.[1];
}
