// What the package costs a router's flash, and what each curated resource adds to it: `npm run
// package` prints this table and fails past the budgets, so every resource added later is held to
// them. A resource owns its generated mapping and doc and its definition's chunk, and a
// share of what the definitions of its domain have in common; a resource that is a route of its own
// owns the chunks that exist for it alone (ROUTE_RESOURCES); everything else is the core.
/** Bytes, 1 KB = 1000 bytes, as uapi's figures are read (UAPI), which the report prints beside them. */
export const BUDGETS = {
  /** The shipped package, deflated by zopfli, each format on its own: the `.ipk`, and the `.apk` (`apk`). */
  package: 108_000,
  apk: 108_000,
  /** The bytes of the files it installs. */
  installed: 450_000,
  /** The package without any resource: today's code with the document's prose gone to wrtapi-doc. */
  coreCompressed: 52_000,
  resourceCompressedAverage: 1_700,
  resourceCompressedMax: 3_500,
};

/**
 * The budgets not met yet, each with the figure enforced meanwhile: today's and a margin, so that
 * nothing grows unnoticed while the report says MISSED. With the prose gone to wrtapi-doc and the dry
 * run (issue 32, 1.9 KB of the core) and commit-confirm (3.8 KB), less the 3 KB the data archive's
 * order saved: the package 111,264 B, the core 58,351. The `.apk` is 121,210 B: apk-tools 3 keeps a
 * SHA-256 of each of the bundle's 250 files, and the order `apk mkpkg` gives them. Then 110 B more of
 * the core for handing wrtapi-bytecode's SHA-256 to the ports (0.6M instructions less for every
 * authenticated request), and 38 B of dhcp/leases for its one-pattern lines (1.4M less a page):
 * the package 111,412 B, the `.apk` 121,469, the core 58,476. Then each doc carried in its
 * resource's mapping module instead of a file of its own, 44 files fewer: the package 109,844 B,
 * the `.apk` 117,645. Then the modules the CGI shares with the other programs in its entry, not in
 * chunks of their own: the package 109,678 B, the `.apk` 117,380, the core 58,246. Then about 70 B
 * more of the core for wrtapi-bytecode's ETag hash and the leftovers sweep's prefixes (a write
 * 0.4-1.2M instructions less, a batch 3-4M): the package 109,737 B, the `.apk` 117,424, the core 58,341.
 * Then about 30 B for the metrics fold clearing its folder's dead temporaries, which a write no longer
 * lists (1M instructions less a write once hundreds of records wait for a fold): the package
 * 109,766 B, the `.apk` 117,456, the core 58,375. Then about 60 B of the core for a write's answer
 * hashed for its ETag from the text it is sent as, not stringified twice (the batch 0.4M less), and
 * a batch's operations handed their bodies as the batch's parsed values (0.6M less), and a read of
 * one resource likewise sent as the text its ETag was hashed from: the package 109,803 B, the `.apk`
 * 117,491, the core 58,434. Then 80 B of the core for the names the qjs ports import from `std` and
 * `os`, where `import * as` built two namespace objects (0.1M instructions less a request): the
 * package 109,887 B, the `.apk` 117,584, the core 58,514. Then about 240 B for the mappings that
 * repeat codecs and `when`s written with each once (network/interfaces' read 0.46M less), 80 of
 * them the core's unshared(): the package 110,129 B, the `.apk` 117,780, the core 58,594. Then
 * the bearer's hash taken as wrtapi-bytecode's hex digits of the text (every authenticated request
 * 0.16M less): the package 110,132 B, the `.apk` 117,826, the core 58,605. Then about 570 B for
 * keeping what requests make from a text in wrtapi-bytecode's cache (Ports.derived: the packages
 * without secrets, the collections' views, the bodies' schemas; the rules list 3.6M instructions
 * less, a rule's POST 1.6M): the package 110,711 B, the `.apk` 118,385, the core 59,168. Then about
 * 250 B for a view's page kept there too, its countdown written in at each read (the first page of
 * 1,000 leases 15.8M instructions to 8.1M): the package 110,949 B, the `.apk` 118,634, the core 59,433.
 * Then about 100 B for a batch's operations routed without importing their tables anew and bodies
 * checked without closures per value (the batch of ten creations 43.5M to 40.7M): the package
 * 111,057 B, the `.apk` 118,693, the core 59,523. Then about 250 B for a body's schema kept with its
 * patterns' sources, recalled before the patterns' module is loaded (a write 0.5-0.8M less): the
 * package 111,309 B, the `.apk` 118,984, the core 59,774. Then about 340 B of the core for the kept
 * document's gzip, answered to the clients that accept it (39 KB for uhttpd to encrypt and send
 * instead of 788 KB, 79 KB instead of 1,036 KB with wrtapi-doc): the package 111,649 B, the `.apk` 119,310, the core 60,123. Then
 * 30 B of the core for the qjs ports starting programs with wrtapi-bytecode's exec (a child 0.5 ms
 * less): the package 111,664 B, the `.apk` 119,323, the core 60,153.
 */
export const MISSED: Partial<Record<keyof typeof BUDGETS, number>> = { package: 111_690, apk: 119_350, coreCompressed: 60_180 };
const enforced = (budget: keyof typeof BUDGETS) => MISSED[budget] ?? BUDGETS[budget];

export const UAPI = { package: 117_343, installed: 938_942 };

/** The resources allowed past `resourceCompressedMax`, each with its limit and why. */
export const OVER_MAX: Record<string, { limit: number; why: string }> = {
  network_interfaces: { limit: 6_000, why: 'the options of five protocols (static, dhcp, dhcpv6, pppoe, wireguard) in one resource' },
  wireless_interfaces: { limit: 6_000, why: 'the options of four modes and two security families in one section type' },
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

/** A package as shipped: its bytes (the `.ipk`'s, and the `.apk`'s), and the bytes of the files it installs. */
export interface Shipped {
  package: number;
  apk: number;
  installed: number;
}

export interface SizeReport {
  wrtapi: Shipped;
  /** Reported, held to no budget. */
  doc: Shipped;
  resources: { name: string; size: Size }[];
  core: Size;
  problems: string[];
  /** The budgets of MISSED that are still over: reported, not enforced. */
  missed: string[];
}

const installed = (parts: Buffer[]) => parts.reduce((total, data) => total + data.length, 0);
const add = (a: Size, b: Size): Size => ({ compressed: a.compressed + b.compressed, installed: a.installed + b.installed });
const averageOf = (resources: SizeReport['resources'], key: keyof Size) => resources.reduce((total, { size }) => total + size[key], 0) / Math.max(resources.length, 1);

/**
 * `files`: the package's router paths and contents; `bundleDir`: where the bundle lies among them;
 * `packageSize`: the size of the package holding just the given files; `wrtapi` and `doc`: the
 * packages as shipped.
 */
export async function sizeReport(
  files: Map<string, Buffer>,
  bundleDir: string,
  packageSize: (files: Map<string, Buffer>) => Promise<number>,
  wrtapi: Shipped,
  doc: Shipped,
): Promise<SizeReport> {
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
  const average = averageOf(resources, 'compressed');
  const problems = [
    wrtapi.package > enforced('package') ? `the package is ${wrtapi.package} B, over ${enforced('package')}` : '',
    wrtapi.apk > enforced('apk') ? `the .apk is ${wrtapi.apk} B, over ${enforced('apk')}` : '',
    wrtapi.installed > BUDGETS.installed ? `the package installs ${wrtapi.installed} B, over ${BUDGETS.installed}` : '',
    core.compressed > enforced('coreCompressed') ? `the core is ${core.compressed} B compressed, over ${enforced('coreCompressed')}` : '',
    average > BUDGETS.resourceCompressedAverage ? `a resource adds ${Math.round(average)} B compressed on average, over ${BUDGETS.resourceCompressedAverage}` : '',
    ...resources
      .filter(({ name, size }) => size.compressed > (OVER_MAX[name]?.limit ?? BUDGETS.resourceCompressedMax))
      .map(({ name, size }) => `${name} adds ${Math.round(size.compressed)} B compressed, over ${OVER_MAX[name]?.limit ?? BUDGETS.resourceCompressedMax}`),
  ].filter(Boolean);
  const missed = [
    wrtapi.package > BUDGETS.package ? `the package is ${wrtapi.package} B, budget ${BUDGETS.package}` : '',
    wrtapi.apk > BUDGETS.apk ? `the .apk is ${wrtapi.apk} B, budget ${BUDGETS.apk}` : '',
    core.compressed > BUDGETS.coreCompressed ? `the core is ${core.compressed} B compressed, budget ${BUDGETS.coreCompressed}` : '',
  ].filter(Boolean);
  return { wrtapi, doc, resources, core, problems, missed };
}

export function formatReport(report: SizeReport): string {
  const row = (name: string, size: Size) => `${name.padEnd(34)}${String(Math.round(size.compressed)).padStart(12)}${String(Math.round(size.installed)).padStart(12)}`;
  const shipped = (name: string, ipk: number | string, apk: number | string, installed: number, beside: string) =>
    `${name.padEnd(34)}${String(ipk).padStart(12)}${String(apk).padStart(12)}${String(installed).padStart(12)}  ${beside}`;
  return [
    `${'package'.padEnd(34)}${'.ipk'.padStart(12)}${'.apk'.padStart(12)}${'installs'.padStart(12)}`,
    shipped('wrtapi', report.wrtapi.package, report.wrtapi.apk, report.wrtapi.installed, `budgets ${BUDGETS.package} each / ${BUDGETS.installed}`),
    shipped('wrtapi-doc (the document\'s prose)', report.doc.package, report.doc.apk, report.doc.installed, 'no budget'),
    shipped('uapi 2.2.0', '-', UAPI.package, UAPI.installed, ''),
    '',
    "what each part adds, weighed with zlib's gzip -9 (the shipped package is deflated by zopfli, a few percent smaller):",
    `${'part'.padEnd(34)}${'compressed'.padStart(12)}${'installed'.padStart(12)}`,
    row('core', report.core),
    ...report.resources.map(({ name, size }) => row(name, size)),
    `budgets: the core ${BUDGETS.coreCompressed} B compressed; a resource ${BUDGETS.resourceCompressedAverage} B on average, ${BUDGETS.resourceCompressedMax} B at most ` +
      `(${Object.entries(OVER_MAX).map(([name, { limit, why }]) => `${name} ${limit}: ${why}`).join('; ')})`,
    `${report.resources.length} resources, the spec's whole inventory, adding ${Math.round(averageOf(report.resources, 'compressed'))} B compressed and ` +
      `${Math.round(averageOf(report.resources, 'installed'))} B installed on average`,
    ...report.missed.map((missed) => `MISSED: ${missed}`),
    ...(report.problems.length ? report.problems.map((problem) => `OVER: ${problem}`) : ['every enforced budget holds']),
  ].join('\n');
}
