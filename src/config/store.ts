import { KEPT_PACKAGES } from '../generated/kept-packages.js';
import { ApiError } from '../http/errors.js';
import type { Ports } from '../platform/ports.js';
import { packPackage, parseCanonical, readUci, unpackPackage, UciSyntaxError, type UciPackage } from '../uci/index.js';

/** A package as read at the start of a write: the exact text, to detect other writers and to restore. */
export interface Snapshot {
  pkg: string;
  text: string | undefined;
  model: UciPackage;
}

export function configPath(pkg: string): string {
  return `/etc/config/${pkg}`;
}

/**
 * The package of a text in `uci commit`'s form, parsed once for all requests that meet it
 * (Ports.derived); undefined for a text in another form.
 */
export function keptPackage(ports: Pick<Ports, 'derived'>, pkg: string, text: string): UciPackage | undefined {
  const name = parsedName(pkg);
  if (!name || !ports.derived) return parseCanonical(text);
  const packed = ports.derived(name, text, (canonical) => {
    const model = parseCanonical(canonical);
    return model && packPackage(model);
  });
  return packed && unpackPackage(packed);
}

/** A package's text read as libuci reads it; throws UciSyntaxError where libuci would refuse it. */
function parseText(ports: Pick<Ports, 'derived'>, pkg: string, text: string): Promise<UciPackage> | UciPackage {
  return keptPackage(ports, pkg, text) ?? readUci(text);
}

/**
 * Keeps what reading `text`, just written from `model`, gives, so that the next request to read
 * the package does not parse it: a write would otherwise leave every following one a text no
 * request has parsed.
 */
export function keepParsed(ports: Pick<Ports, 'derived'>, pkg: string, text: string, model: UciPackage): void {
  const name = parsedName(pkg);
  if (name) ports.derived?.(name, text, () => packPackage(model, true));
}

// A secret, and the token store's salts and hashes, never leave their configuration file: only the
// packages no definition declares a secret of are kept, never wrtapi's own.
const parsedName = (pkg: string) => (KEPT_PACKAGES.includes(pkg) ? `uci.${pkg}` : undefined);

/**
 * What a value made from a package's text is kept as made from (Ports.derived): the text itself, or
 * its SHA-256 when the package may hold a secret, which must not leave its file.
 */
export function madeFrom(ports: Pick<Ports, 'sha256Hex'>, pkg: string, text: string): string | undefined {
  return parsedName(pkg) ? text : ports.sha256Hex?.(text);
}

/** Parses a package's file as read; a missing file is an empty package, a malformed one a clear 500. */
export async function parsePackage(ports: Ports, pkg: string, text: string | undefined): Promise<UciPackage> {
  if (text === undefined) return { sections: [] };
  try {
    return await parseText(ports, pkg, text);
  } catch (error) {
    if (!(error instanceof UciSyntaxError)) throw error;
    throw new ApiError(500, 'internal_error', `${configPath(pkg)} is malformed (${error.message}); it was not changed`);
  }
}

export function readPackage(ports: Ports, pkg: string): Promise<UciPackage> {
  return parsePackage(ports, pkg, ports.readFile(configPath(pkg)));
}

export async function takeSnapshot(ports: Ports, pkg: string): Promise<Snapshot> {
  const text = ports.readFile(configPath(pkg));
  return { pkg, text, model: await parsePackage(ports, pkg, text) };
}
