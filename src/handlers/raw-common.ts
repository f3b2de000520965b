import { requireScope, type Caller } from '../auth/gate.js';
import { configPath, readPackage } from '../config/store.js';
import { checkRawPackage, curatedTarget, readsNeedRw } from '../engine/raw.js';
import type { RawTarget } from '../engine/raw-write.js';
import { ApiError } from '../http/errors.js';
import { findSection, type UciPackage, type UciSection } from '../uci/index.js';
import type { Context } from './context.js';

/**
 * The raw tree's scope was checked by the pipeline; this checks the curated tree for the section's
 * real type (spec: Matching rules 3). A write needs `rw` of both.
 */
export function requireCurated(caller: Caller, pkg: string, type: string, write: boolean): void {
  requireScope(caller, curatedTarget(pkg, type), write || readsNeedRw(pkg));
}

/** The package a raw path names, read, after the checks every raw request passes. */
export async function rawPackage(context: Context): Promise<UciPackage> {
  const { ports, params, request } = context;
  checkRawPackage(params.package, request.method, ports.stat(configPath(params.package)) !== undefined);
  return readPackage(ports, params.package);
}

/** The section a raw item path names, once the caller may read its type. */
export async function rawSection(context: Context): Promise<UciSection> {
  const { params } = context;
  const section = findSection(await rawPackage(context), params.id);
  if (!section) throw new ApiError(404, 'not_found', `${params.package} has no section ${params.id}`);
  requireCurated(context.caller!, params.package, section.type, false);
  return section;
}

/**
 * A raw write's target. The curated scope and checks are those of the type the write stages, which
 * within a batch may be a section an earlier operation created, so the transaction finds the
 * section (or answers 404).
 */
export async function rawTarget(context: Context): Promise<RawTarget> {
  const { ports, request, params, caller, run } = context;
  const model = await rawPackage(context);
  const type = params.id === undefined ? undefined : findSection(model, params.id)?.type;
  return { ports, request, pkg: params.package, id: params.id, type, run, authorize: (staged) => requireCurated(caller!, params.package, staged, true) };
}
