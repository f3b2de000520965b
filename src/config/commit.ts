import { ApiError } from '../http/errors.js';
import type { Ports } from '../platform/ports.js';
import { configPath, keepParsed, type Snapshot } from './store.js';

/**
 * Writes the package by atomic replace, unless another writer (LuCI, the `uci` command) changed the
 * file since the snapshot: their change is kept and this write refused. Those tools do not take
 * our locks, so the comparison narrows the window to the instant between reading and renaming.
 * `text` is the staged model, the snapshot's, as serializeUci writes it.
 */
export function commitPackage(ports: Ports, snapshot: Snapshot, text: string): void {
  if (ports.readFile(configPath(snapshot.pkg)) !== snapshot.text) {
    throw new ApiError(409, 'conflict', `${configPath(snapshot.pkg)} was changed by another writer meanwhile; nothing was written`);
  }
  replaceKeepingMode(ports, configPath(snapshot.pkg), text);
  keepParsed(ports, snapshot.pkg, text, snapshot.model);
}

/** Puts the snapshot's exact bytes back. */
export function restorePackage(ports: Ports, snapshot: Pick<Snapshot, 'pkg' | 'text'>): void {
  if (snapshot.text === undefined) ports.remove(configPath(snapshot.pkg));
  else replaceKeepingMode(ports, configPath(snapshot.pkg), snapshot.text);
}

// The file keeps its permissions, as `uci commit` keeps them: a package of keys its owner made 0600
// must not come back readable by every user.
function replaceKeepingMode(ports: Ports, path: string, text: string): void {
  ports.writeFileAtomic(path, text, ports.stat(path)?.mode);
}

export function initScript(service: string): string {
  return `/etc/init.d/${service}`;
}

/** Runs `<init script> reload`; the failure summary, or undefined when it exited 0. */
export function reload(ports: Ports, service: string): string | undefined {
  const { code, stdout, stderr } = ports.run([initScript(service), 'reload']);
  if (code === 0) return undefined;
  const output = (stderr.trim() || stdout.trim()).split('\n').slice(-3).join(' ').slice(0, 300);
  return `${initScript(service)} reload exited ${code}${output ? `: ${output}` : ''}`;
}
