// What the package costs a router's flash, and what each curated resource adds to it: `npm run
// package` prints this table and fails past the budgets, so every resource added later is held to
// them. A resource owns its generated mapping and doc and its definition's chunk, and a
// share of what the definitions of its domain have in common; a resource that is a route of its own
// owns the chunks that exist for it alone (ROUTE_RESOURCES); everything else is the core.
/** Bytes, 1 KB = 1000 bytes, as uapi's figures (117,343 / 938,942) are read against them. */
export const BUDGETS = {
  /** The aim for a resource's average share, reported; today's option-rich resources miss it. */
  resourceCompressedAverage: 1_900,
  /** Today's average and a margin: 2,150 until the docs left their members' names to the mappings (1,659 to 1,589). */
  resourceCompressedAverageCeiling: 1_700,
  resourceCompressedMax: 3_500,
  resourceInstalledAverage: 12_000,
  /** The aim for the core, not met yet: reported, not enforced. */
  coreCompressed: 30_000,
  /**
   * Enforced until the aim is met: today's core and a margin, so it cannot grow unnoticed. It went
   * from 46,000 to 57,000 with raw passthrough (3.9 KB), the batch (3 KB) and /packages (4.2 KB),
   * and to 62,000 with system/authorized_keys (56,789 to 61,228: its parser, handler and document paths),
   * and to 62,500 when the fixed routes left the entry for a table per path segment (61,063 to 62,084:
   * twelve more files, each with its tar header, for 1.4M fewer instructions on every request),
   * then down to 62,300 when the package went to gzip level 9 (62,558 to 62,077, after the log lines
   * went to a logger the answer does not wait for), and to 62,500 with the bearer index (a request
   * no longer hashes the bearer with every token's salt) and the token store kept 0600 (62,360).
   * Down to 56,200 when the resources that are routes of their own were weighed as resources (55,946),
   * and to 56,000 when the docs index gave way to the inventory's tables (55,763). 57,000 when a
   * round of fixes to the generic contract (401 before routing, bodies where none is expected, raw
   * id limits, revocation, references within a batch) took it to 56,462. 57,400 when the contract's
   * holes were closed (issue 28: the text rule, read-only fields, package scopes, untagged
   * preconditions, the document's statements of them): 57,167. 58,600 when the Terraform dialect
   * (issue 29) brought the engine field defaults, derived values and family defaults, the per-section
   * runtime calls, epoch times and the package and feed records of the document (58,307). 60,700
   * with issue 32's dry run (58,555 to 60,450: the `uci changes` formatter and the dry run's handler
   * 1.7 KB, the pipeline's and the batch's share 1.5 KB, the document's parameter, schema and answers
   * 1.8 KB) and a batch that builds each resource's body checks once.
   */
  coreCompressedCeiling: 60_700,
  /**
   * 150,000 until /packages (its handler 7.7 KB, its document 6.7 KB) took the core to 164,391;
   * system/authorized_keys took it from 165,242 to 177,925; 161,000 once the resources that are
   * routes of their own were weighed as resources (160,069); 160,000 when the docs index gave way to
   * the inventory's tables (159,016); 162,000 with that round of fixes (160,936); 163,000 with
   * issue 28's (162,560); 167,000 with issue 29's Terraform dialect (166,209); 167,200 when writes
   * serialised a package once and checked only the body kind they take (167,023); 173,200 with the
   * dry run (172,993).
   */
  coreInstalled: 173_200,
};

/**
 * Resources past `resourceCompressedMax`, each with its own limit and why: reported as missing the
 * budget, held to the limit.
 */
export const OVER_MAX: Record<string, { limit: number; why: string }> = {
  network_interfaces: { limit: 5_000, why: 'the options of five protocols (static, dhcp, dhcpv6, pppoe, wireguard) in one resource' },
  wireless_interfaces: { limit: 6_200, why: 'the options of four modes and two security families in one section type, every one hostapd.sh and netifd read that a PUT would otherwise drop, and the iwinfo runtime uapi\'s provider reads' },
  openvpn_instances: { limit: 3_700, why: 'the options openvpn.init passes on, with the 17 uapi\'s provider adds, and the combinations openvpn 2.6 exits on' },
  system_authorized_keys: { limit: 3_700, why: 'a route of its own: its handler, the key-line parser dropbear\'s reading dictates (whole lines, as uapi\'s provider sends them), and its document paths' },
};

/**
 * The curated resources of the spec's inventory that are routes of their own rather than definitions,
 * by the bundle chunks that exist for them alone; a chunk two of them share is weighed half each.
 * Their paths in the OpenAPI document lie in its fixed part, which is weighed with the core.
 */
const ROUTE_RESOURCES: Record<string, string[]> = {
  'handlers/password.js': ['system_password'],
  'handlers/authorized-keys.js': ['system_authorized_keys'],
  'routes/authorized-keys.js': ['system_authorized_keys'],
  'handlers/packages.js': ['packages_installed', 'packages_feeds'],
};

const RESOURCE_FOLDERS = ['mappings', 'docs', 'resources', 'tables'];
/** Chunks of those folders that every resource has a share of: the index of the domains' tables, the patterns, and raw's curated types. */
const SHARED_STEMS = ['resources', 'patterns', 'raw'];

export interface Size {
  /**
   * What the files add to the package: its size less the size of the same package without them. The
   * core's is the size of the package without any resource.
   */
  compressed: number;
  /** The files' bytes, as they lie on the router. */
  installed: number;
}

export interface SizeReport {
  resources: { name: string; size: Size }[];
  core: Size;
  problems: string[];
  /** Budgets missed but not enforced (the core's aim). */
  misses: string[];
}

const installed = (parts: Buffer[]) => parts.reduce((total, data) => total + data.length, 0);
const add = (a: Size, b: Size): Size => ({ compressed: a.compressed + b.compressed, installed: a.installed + b.installed });
const averageOf = (resources: SizeReport['resources'], key: keyof Size) => resources.reduce((total, { size }) => total + size[key], 0) / Math.max(resources.length, 1);

/**
 * `files`: the package's router paths and contents; `bundleDir`: where the bundle lies among them;
 * `packageSize`: the size of the package holding just the given files.
 */
export async function sizeReport(files: Map<string, Buffer>, bundleDir: string, packageSize: (files: Map<string, Buffer>) => Promise<number>): Promise<SizeReport> {
  const paths = [...files.keys()].sort();
  const definitions = paths
    .map((path) => /^\/(?:generated\/)?mappings\/(\w+)\.js$/.exec(path.slice(bundleDir.length))?.[1])
    .filter((name): name is string => name !== undefined && !SHARED_STEMS.includes(name));
  const names = [...definitions, ...new Set(Object.values(ROUTE_RESOURCES).flat())];
  // Whose each path is: one resource's, the resources' of a domain (what their definitions share,
  // `resources/firewall_common.js`, and their table, `tables/firewall.js`), every resource's (the
  // patterns their docs share, the tables' index), or nobody's (the core).
  const owners = new Map<string, string[]>();
  for (const path of paths) {
    // A domain's table lies at generated/tables/<domain>.js, where engine/tables.ts imports it by name.
    const [folder, file] = path.startsWith(`${bundleDir}/`) ? path.slice(bundleDir.length + 1).replace(/^generated\//, '').split('/') : [];
    const stem = file?.replace(/\.js$/, '') ?? '';
    if (ROUTE_RESOURCES[`${folder}/${file}`]) owners.set(path, ROUTE_RESOURCES[`${folder}/${file}`]);
    else if (RESOURCE_FOLDERS.includes(folder) && definitions.includes(stem)) owners.set(path, [stem]);
    else if (folder === 'resources') owners.set(path, definitions.filter((name) => name.startsWith(`${stem.split('_')[0]}_`)));
    else if (folder === 'tables') owners.set(path, definitions.filter((name) => name.startsWith(`${stem}_`)));
    else if (RESOURCE_FOLDERS.includes(folder)) owners.set(path, definitions);
    else owners.set(path, []);
  }
  const contents = (chosen: string[]) => chosen.map((path) => files.get(path)!);
  const sizeOf = (chosen: string[]) => packageSize(new Map(chosen.map((path) => [path, files.get(path)!])));
  const whole = await sizeOf(paths);
  const bySize = new Map(names.map((name) => [name, { compressed: 0, installed: 0 }]));
  // Paths with the same owners are weighed together, then shared out among those owners.
  const groups = new Map<string, string[]>();
  for (const [path, owner] of owners) if (owner.length) groups.set(owner.join(' '), [...(groups.get(owner.join(' ')) ?? []), path]);
  for (const [group, owned] of groups) {
    const sharers = group.split(' ');
    const compressed = (whole - (await sizeOf(paths.filter((path) => !owned.includes(path))))) / sharers.length;
    const bytes = installed(contents(owned)) / sharers.length;
    for (const name of sharers) bySize.set(name, add(bySize.get(name)!, { compressed, installed: bytes }));
  }
  const corePaths = paths.filter((path) => !owners.get(path)!.length);
  const core: Size = { compressed: await sizeOf(corePaths), installed: installed(contents(corePaths)) };
  const resources = names.map((name) => ({ name, size: bySize.get(name)! }));
  const average = (key: keyof Size) => averageOf(resources, key);
  const problems = [
    average('compressed') > BUDGETS.resourceCompressedAverageCeiling
      ? `a resource adds ${Math.round(average('compressed'))} B compressed on average, over its ceiling of ${BUDGETS.resourceCompressedAverageCeiling}`
      : '',
    average('installed') > BUDGETS.resourceInstalledAverage ? `a resource adds ${Math.round(average('installed'))} B installed on average, over ${BUDGETS.resourceInstalledAverage}` : '',
    ...resources
      .filter(({ name, size }) => size.compressed > (OVER_MAX[name]?.limit ?? BUDGETS.resourceCompressedMax))
      .map(({ name, size }) => `${name} adds ${Math.round(size.compressed)} B compressed, over ${OVER_MAX[name]?.limit ?? BUDGETS.resourceCompressedMax}`),
    core.compressed > BUDGETS.coreCompressedCeiling ? `the core is ${core.compressed} B compressed, over its ceiling of ${BUDGETS.coreCompressedCeiling}` : '',
    core.installed > BUDGETS.coreInstalled ? `the core is ${core.installed} B installed, over ${BUDGETS.coreInstalled}` : '',
  ].filter(Boolean);
  const misses = [
    core.compressed > BUDGETS.coreCompressed ? `the core is ${core.compressed} B compressed, over the aim of ${BUDGETS.coreCompressed}` : '',
    average('compressed') > BUDGETS.resourceCompressedAverage
      ? `a resource adds ${Math.round(average('compressed'))} B compressed on average, over the aim of ${BUDGETS.resourceCompressedAverage}`
      : '',
    ...resources
      .filter(({ name, size }) => OVER_MAX[name] && size.compressed > BUDGETS.resourceCompressedMax)
      .map(({ name, size }) => `${name} adds ${Math.round(size.compressed)} B compressed, over ${BUDGETS.resourceCompressedMax}: ${OVER_MAX[name].why}`),
  ].filter(Boolean);
  return { resources, core, problems, misses };
}

export function formatReport(report: SizeReport): string {
  const row = (name: string, size: Size) => `${name.padEnd(34)}${String(Math.round(size.compressed)).padStart(12)}${String(Math.round(size.installed)).padStart(12)}`;
  return [
    "what each part adds, weighed with zlib's gzip -9 (the shipped package is deflated by zopfli, a few percent smaller):",
    `${'part'.padEnd(34)}${'compressed'.padStart(12)}${'installed'.padStart(12)}`,
    row('core', report.core),
    ...report.resources.map(({ name, size }) => row(name, size)),
    `budgets: a resource at most ${BUDGETS.resourceCompressedAverage} B compressed (enforced: ${BUDGETS.resourceCompressedAverageCeiling}) and ${BUDGETS.resourceInstalledAverage} B installed on average, ` +
      `${BUDGETS.resourceCompressedMax} B compressed at most; the core ${BUDGETS.coreCompressed} B compressed (enforced: ${BUDGETS.coreCompressedCeiling}), ${BUDGETS.coreInstalled} B installed`,
    `${report.resources.length} resources, the spec's whole inventory, adding ${Math.round(averageOf(report.resources, 'compressed'))} B compressed and ` +
      `${Math.round(averageOf(report.resources, 'installed'))} B installed on average (uapi 2.2.0 ships it in 117 KB that install 939 KB)`,
    ...report.misses.map((miss) => `MISSED: ${miss}`),
    ...(report.problems.length ? report.problems.map((problem) => `OVER: ${problem}`) : ['every enforced budget holds']),
  ].join('\n');
}
