// Writes a package exactly as `uci commit` does (uci_export_package() in libuci's file.c, without
// the `package` header): every section preceded by a blank line, the type unquoted, the name of a
// named section and every value single-quoted, a quote written as '\'', and one closing newline.

import type { UciPackage } from './model.js';

export function serializeUci(pkg: UciPackage): string {
  let text = '';
  for (const section of pkg.sections) {
    text += `\nconfig ${escape(section.type)}`;
    if (!section.anonymous) text += ` '${escape(section.name)}'`;
    text += '\n';
    for (const [name, value] of section.options) {
      if (typeof value !== 'string') {
        for (const item of value) text += `\tlist ${name} '${escape(item)}'\n`;
      } else if (value !== '') {
        // libuci never holds an empty option (setting one to '' deletes it), and reading
        // `option x ''` back would drop it anyway.
        text += `\toption ${name} '${escape(value)}'\n`;
      }
    }
  }
  return text + '\n';
}

// uci_escape()
function escape(text: string): string {
  return text.split("'").join("'\\''");
}
