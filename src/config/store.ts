import { ApiError } from '../errors.js';
import type { Ports } from '../ports.js';
import { parseUci, serializeUci, UciSyntaxError, type UciPackage } from '../uci/index.js';

/** A package as read at the start of a write: the exact text, to detect other writers and to restore. */
export interface Snapshot {
  pkg: string;
  text: string | undefined;
  model: UciPackage;
}

function configPath(pkg: string): string {
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

/**
 * Writes the package by atomic replace, unless another writer (LuCI, the `uci` command) changed the
 * file since the snapshot: their change is kept and this write refused. Those tools do not take
 * our locks, so the comparison narrows the window to the instant between reading and renaming.
 */
export function commitPackage(ports: Ports, snapshot: Snapshot, model: UciPackage): void {
  if (ports.readFile(configPath(snapshot.pkg)) !== snapshot.text) {
    throw new ApiError(409, 'conflict', `${configPath(snapshot.pkg)} was changed by another writer meanwhile; nothing was written`);
  }
  ports.writeFileAtomic(configPath(snapshot.pkg), serializeUci(model));
}

/** Puts the snapshot's exact bytes back. */
export function restorePackage(ports: Ports, snapshot: Snapshot): void {
  if (snapshot.text === undefined) ports.remove(configPath(snapshot.pkg));
  else ports.writeFileAtomic(configPath(snapshot.pkg), snapshot.text);
}
