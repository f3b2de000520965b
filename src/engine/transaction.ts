import { ARMED_STATE } from '../config/lock-file.js';
import { acquireLocks } from '../config/locks.js';
import { commitPackage, initScript, reload, restorePackage } from '../config/commit.js';
import { takeSnapshot, type Snapshot } from '../config/store.js';
import { ApiError } from '../http/errors.js';
import type { Ports } from '../platform/ports.js';
import { serializeUci, type UciPackage } from '../uci/index.js';
import type { Confirming, Window } from '../config/armed.js';

const SERVICE_NAME = /^[A-Za-z0-9_-]+$/;

export interface WritePlan<T> {
  /** Every package the write locks and stages. */
  packages: string[];
  /** Those it may change; the others are staged to be read (referenced ones), and never written. */
  writes: string[];
  /** Init scripts to reload after the commit, in order. */
  reload: string[];
  /** The package that installs them, named when one is missing. */
  provider?: string;
  /** Validates and changes the staged packages; throwing aborts the write with nothing written. */
  stage(staged: (pkg: string) => UciPackage): T;
  /**
   * After the reloads, applies the change to the running kernel: the interfaces applied and those
   * skipped (down or unknown), or why it failed, which restores the snapshot as a failed reload does.
   */
  apply?(result: T, staged: (pkg: string) => UciPackage): KernelOutcome | { failure: string };
}

export interface KernelOutcome {
  applied: string[];
  skipped: string[];
}

/** X-Kernel-Status and X-Kernel-Applied as the spec defines them. */
function kernelHeaders(outcome: KernelOutcome | undefined): Record<string, string> {
  if (!outcome) return { 'X-Kernel-Status': 'no_kernel' };
  const { applied, skipped } = outcome;
  const status = !applied.length && !skipped.length ? 'no_kernel' : !applied.length ? 'skipped' : skipped.length ? 'partial' : 'ok';
  return { 'X-Kernel-Status': status, ...(applied.length ? { 'X-Kernel-Applied': applied.join(',') } : {}) };
}

export interface Written<T> {
  result: T;
  /** X-Reload-Status, X-Reload-Services and X-Kernel-Status of the write. */
  headers: Record<string, string>;
}

/**
 * The spec's write transaction: pre-flight of the init scripts, non-blocking locks, snapshot,
 * validation and staging on the snapshot's copy, atomic commit, reload with the exit code checked,
 * and on a failed reload the snapshot restored, committed and reloaded again.
 */
export async function runTransaction<T>(ports: Ports, plan: WritePlan<T>, confirm?: Confirming): Promise<Written<T>> {
  const { results, headers } = await runPlans(ports, [plan], { confirm });
  return { result: results[0], headers };
}

/** Why a transaction of several plans failed: the plan it failed at, and its error. */
export class PlanFailure extends Error {
  constructor(
    readonly index: number,
    readonly error: unknown,
  ) {
    super(error instanceof Error ? error.message : String(error));
  }
}

/** What a dry run found it would do: the `uci changes` lines of each package it would change, and the services it would reload. */
export interface DryRun {
  changes: Record<string, string[]>;
  reload: string[];
}

export interface RunOptions {
  /** Throw a failure as the PlanFailure of the plan it belongs to (a batch's). */
  attribute?: boolean;
  dryRun?: boolean;
  /** `?confirm_within` or `?confirm_id`: the write arms a change or joins the armed one (config/armed.ts). */
  confirm?: Confirming;
}

export interface Ran<T> {
  results: T[];
  headers: Record<string, string>;
  /** A dry run's findings. */
  dryRun?: DryRun;
}

/**
 * One transaction over several plans (a batch): every package locked in one fixed order and
 * snapshotted once, the plans staged in turn on the same staged packages (each sees the changes of
 * those before it), one commit, each service reloaded once, then every kernel apply. A batch that
 * writes nothing answers no reload or kernel header. A dry run stops once every plan is staged:
 * it commits, reloads and applies nothing, and leaves what killed processes left to the next write.
 * While a change awaits confirmation, only the writes that join it pass; an arm takes the global lock
 * exclusively, so no write that began before it commits after it unseen.
 */
export async function runPlans<T>(ports: Ports, plans: WritePlan<T>[], { attribute, dryRun, confirm }: RunOptions = {}): Promise<Ran<T>> {
  const fail = (index: number, error: unknown): never => {
    throw attribute ? new PlanFailure(index, error) : error;
  };
  const services = [...new Set(plans.flatMap((plan) => plan.reload))];
  // A service's failure is the first plan's that reloads it.
  const owner = (service: string) => Math.max(0, plans.findIndex((plan) => plan.reload.includes(service)));
  for (const service of services) {
    if (!SERVICE_NAME.test(service) || ports.stat(initScript(service)) === undefined) {
      const provider = plans[owner(service)].provider;
      const install = provider ? `the package ${provider}` : 'the package that provides it';
      fail(owner(service), new ApiError(503, 'init_script_missing', `Init script ${initScript(service)} is missing; install ${install} (POST /packages/installed). Nothing was changed`));
    }
  }
  const packages = [...new Set(plans.flatMap((plan) => plan.packages))];
  const writes = [...new Set(plans.flatMap((plan) => plan.writes))];
  let held: ReturnType<typeof acquireLocks>;
  try {
    held = acquireLocks(ports, packages, confirm?.within === undefined ? 'shared' : 'exclusive', !dryRun);
  } catch (error) {
    return fail(0, error);
  }
  try {
    const confirming = confirm || ports.stat(ARMED_STATE) ? await import('../config/armed.js') : undefined;
    let window: Window | undefined;
    try {
      window = confirming?.admit(ports, confirm);
    } catch (error) {
      return fail(0, error);
    }
    const snapshots = new Map<string, Snapshot>();
    for (const pkg of packages) snapshots.set(pkg, await takeSnapshot(ports, pkg));
    const staged = (pkg: string) => snapshots.get(pkg)!.model;
    const changes = dryRun ? await import('../uci/changes.js') : undefined;
    const recorded = changes && writes.map((pkg) => changes.recordSections(staged(pkg)));
    const results = plans.map((plan, index) => {
      try {
        return plan.stage(staged);
      } catch (error) {
        return fail(index, error);
      }
    });
    if (changes) {
      // The secrets a read never shows are those raw passthrough redacts.
      const { curatedType } = await import('./raw.js');
      const lines = writes.map((pkg, i) => [pkg, changes.uciChanges(pkg, recorded![i], staged(pkg), (section) => curatedType(pkg, section.type)?.secrets ?? [])] as const).filter(([, changed]) => changed.length);
      if (window) window.confirm.authorize(lines.map(([pkg]) => pkg));
      return { results, headers: {}, dryRun: { changes: Object.fromEntries(lines), reload: services } };
    }
    // A package staged to be read is left as it lies, comments included.
    const changing = writes.flatMap((pkg) => {
      const snapshot = snapshots.get(pkg)!;
      const text = serializeUci(snapshot.model);
      return text === snapshot.text ? [] : [{ snapshot, text }];
    });
    const undo = window && confirming!.keep(ports, window, changing.map(({ snapshot }) => snapshot), services);
    try {
      const headers = commitAndApply(ports, plans, results, staged, changing, services, owner, fail);
      return { results, headers: { ...(writes.length ? headers : {}), ...(window ? confirming!.windowHeaders(window) : {}) } };
    } catch (error) {
      // A restore that failed leaves the window armed: its snapshots are what the router needs back.
      const cause = error instanceof PlanFailure ? error.error : error;
      if (undo && (cause as Partial<ApiError>).code !== 'reload_failed_unrecovered') undo();
      throw error;
    }
  } finally {
    held.release();
  }
}

/**
 * Commits each changed package, reloads each service once and applies the plans to the kernel; a
 * failed reload or apply restores every committed package and reloads again. The reload and kernel
 * headers of the write.
 */
function commitAndApply<T>(
  ports: Ports,
  plans: WritePlan<T>[],
  results: T[],
  staged: (pkg: string) => UciPackage,
  changing: { snapshot: Snapshot; text: string }[],
  services: string[],
  owner: (service: string) => number,
  fail: (index: number, error: unknown) => never,
): Record<string, string> {
  const committed: Snapshot[] = [];
  try {
    for (const { snapshot, text } of changing) {
      commitPackage(ports, snapshot, text);
      committed.push(snapshot);
    }
  } catch (error) {
    for (const snapshot of committed) restorePackage(ports, snapshot);
    throw error;
  }
  const restore = (index: number, failure: string) => {
    try {
      restoreAfterFailedReload(ports, committed, services, failure);
    } catch (error) {
      fail(index, error);
    }
  };
  for (const service of services) {
    const failure = reload(ports, service);
    if (failure !== undefined) restore(owner(service), failure);
  }
  const outcomes: KernelOutcome[] = [];
  plans.forEach((plan, index) => {
    const applied = plan.apply?.(results[index], staged);
    if (applied && 'failure' in applied) restore(index, applied.failure);
    else if (applied) outcomes.push(applied);
  });
  const kernel = outcomes.length ? { applied: outcomes.flatMap((outcome) => outcome.applied), skipped: outcomes.flatMap((outcome) => outcome.skipped) } : undefined;
  return { 'X-Reload-Status': 'ok', 'X-Reload-Services': services.join(','), ...kernelHeaders(kernel) };
}

function restoreAfterFailedReload(ports: Ports, committed: Snapshot[], services: string[], reloadError: string): never {
  let restoreError: string | undefined;
  try {
    for (const snapshot of committed) restorePackage(ports, snapshot);
  } catch (error) {
    restoreError = `restoring the configuration failed: ${(error as Error).message}`;
  }
  for (const service of services) {
    if (restoreError) break;
    restoreError = reload(ports, service);
  }
  if (restoreError !== undefined) {
    throw new ApiError(500, 'reload_failed_unrecovered', 'The reload failed and so did the restore; the router needs manual recovery', {
      reload_error: reloadError,
      restore_error: restoreError,
    });
  }
  throw new ApiError(500, 'reload_failed_restored', 'The reload failed; the previous configuration was restored', { reload_error: reloadError });
}
