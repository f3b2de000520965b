// Writes a package exactly as `uci commit` does (uci_export_package() in libuci's file.c, without
// the `package` header): every section preceded by a blank line, the type unquoted, the name of a
// named section and every value single-quoted, a quote written as '\'', and one closing newline.

import type { UciPackage } from './model.js';

export function serializeUci(pkg: UciPackage): string {
  const lines: string[] = [];
  for (const section of pkg.sections) {
    lines.push('', section.anonymous ? `config ${escape(section.type)}` : `config ${escape(section.type)} '${escape(section.name)}'`);
    for (const [name, value] of section.options) {
      if (typeof value !== 'string') {
        for (const item of value) lines.push(`\tlist ${name} '${escape(item)}'`);
      } else if (value !== '') {
        // libuci never holds an empty option (setting one to '' deletes it), and reading
        // `option x ''` back would drop it anyway.
        lines.push(`\toption ${name} '${escape(value)}'`);
      }
    }
  }
  lines.push('', '');
  return lines.join('\n');
}

// uci_escape(). Few values hold a quote, and looking for one costs far less than splitting.
function escape(text: string): string {
  return text.includes("'") ? text.split("'").join("'\\''") : text;
}
