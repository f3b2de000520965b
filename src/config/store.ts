import { ApiError } from '../http/errors.js';
import type { Ports } from '../platform/ports.js';
import { readUci, UciSyntaxError, type UciPackage } from '../uci/index.js';

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
async function parsePackage(pkg: string, text: string | undefined): Promise<UciPackage> {
  if (text === undefined) return { sections: [] };
  try {
    return await readUci(text);
  } catch (error) {
    if (!(error instanceof UciSyntaxError)) throw error;
    throw new ApiError(500, 'internal_error', `${configPath(pkg)} is malformed (${error.message}); it was not changed`);
  }
}

export function readPackage(ports: Ports, pkg: string): Promise<UciPackage> {
  return parsePackage(pkg, ports.readFile(configPath(pkg)));
}

export async function takeSnapshot(ports: Ports, pkg: string): Promise<Snapshot> {
  const text = ports.readFile(configPath(pkg));
  return { pkg, text, model: await parsePackage(pkg, text) };
}
