import { ApiError } from '../errors.js';
import type { Ports } from '../ports.js';
import { parseUci, UciSyntaxError, type UciPackage } from '../uci/index.js';

/** A package as read at the start of a write: the exact text, to detect other writers and to restore. */
export interface Snapshot {
  pkg: string;
  text: string | undefined;
  model: UciPackage;
}

export function configPath(pkg: string): string {
  return `/etc/config/${pkg}`;
}

/** Parses a package's file; a missing file is an empty package, a malformed one a clear 500. */
function parsePackage(pkg: string, text: string | undefined): UciPackage {
  if (text === undefined) return { sections: [] };
  try {
    return parseUci(text);
  } catch (error) {
    if (!(error instanceof UciSyntaxError)) throw error;
    throw new ApiError(500, 'internal_error', `${configPath(pkg)} is malformed (${error.message}); it was not changed`);
  }
}

export function readPackage(ports: Ports, pkg: string): UciPackage {
  return parsePackage(pkg, ports.readFile(configPath(pkg)));
}

export function takeSnapshot(ports: Ports, pkg: string): Snapshot {
  const text = ports.readFile(configPath(pkg));
  return { pkg, text, model: parsePackage(pkg, text) };
}
