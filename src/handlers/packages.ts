import { acquireLocks } from '../config/locks.js';
import { ApiError, type FieldError } from '../http/errors.js';
import { validationFailed } from '../http/validation-failed.js';
import { jsonResponse, plainResponse } from '../http/response.js';
import { parseFeeds, replacedFeed, withFeed, type Feed, type Placed } from '../packages/feeds.js';
import { bodyProblems, FEED_NAME, FEED_URL, PACKAGE_NAME, valueProblem } from '../packages/grammar.js';
import { failure, listInstalled, listsDir, listsMissing, managerOf, run, summary, type Manager } from '../packages/managers.js';
import type { Ports } from '../platform/ports.js';
import type { Context } from './context.js';
import { pageOf } from './paging.js';

// The /packages resources: the package database (packages/installed) and the custom feeds
// (packages/feeds), over whichever package manager the router has now (src/packages/). Every name
// is checked before a process starts; every write takes the global lock exclusively, as the spec's
// non-configuration writes do, and answers once the tool has exited. One module for both, so a
// router's flash holds one chunk for them.

function installedOne(ports: Ports, manager: Manager, name: string) {
  return listInstalled(ports, manager).find((record) => record.name === name);
}

/** `GET /packages/installed[/<name>]`: the package database, paged as a collection, or one package. */
async function getInstalled({ ports, request, params }: Context) {
  const manager = managerOf(ports);
  if (params.name !== undefined) {
    const record = new RegExp(PACKAGE_NAME).test(params.name) ? installedOne(ports, manager, params.name) : undefined;
    if (!record) throw new ApiError(404, 'not_found', `No installed package ${params.name}`);
    return jsonResponse(200, record);
  }
  const { page, headers } = pageOf(request.query, listInstalled(ports, manager), (record) => record.name);
  return jsonResponse(200, page, headers);
}

/**
 * `POST /packages/installed` `{name}`: installs with the router's package manager and answers once
 * it has exited: 201 with the record the database then holds (for a virtual name, `ip` that
 * `ip-full` provides, the one package that came). A package already installed answers 200 with its
 * record and runs nothing, as uapi's provider expects of a package it adopts. opkg first updates its
 * lists when it has none (they live in a tmpfs). For a name no feed offers the tool changes nothing;
 * what it changed before another failure is left as it left it.
 */
async function postInstalled({ ports, request }: Context) {
  const { bodyObject } = await import('../http/json-body.js');
  const body = await bodyObject(request);
  const errors = bodyProblems(body, { name: PACKAGE_NAME });
  if (errors.length) throw validationFailed(errors, 'packages/installed: the request');
  const name = body.name as string;
  const held = acquireLocks(ports, [], 'exclusive');
  try {
    const manager = managerOf(ports);
    const before = listInstalled(ports, manager);
    const present = before.find((record) => record.name === name);
    if (present) return jsonResponse(200, present);
    if (listsMissing(ports, manager)) {
      const updated = run(ports, manager, ['update']);
      if (updated.code !== 0) throw new ApiError(503, 'service_unavailable', `${failure(manager, ['update'], updated)}; nothing was installed`);
    }
    const args = [manager.add, name];
    const result = run(ports, manager, args);
    const after = listInstalled(ports, manager);
    const added = after.filter((record) => !before.some((old) => old.name === record.name));
    const record = after.find((candidate) => candidate.name === name) ?? (added.length === 1 ? added[0] : undefined);
    if (result.code === 0 && record) return jsonResponse(201, record);
    const came = added.length ? `; it installed ${added.map((one) => one.name).join(', ')}` : '';
    if (!added.length && `${result.stdout}\n${result.stderr}`.includes(manager.unknown(name))) {
      throw validationFailed([{ field: 'name', code: 'not_in_enum', message: `No feed offers ${name}: ${summary(result)}` }], 'packages/installed: the request');
    }
    throw new ApiError(500, 'internal_error', `${failure(manager, args, result)}${came || '; nothing was installed'}`);
  } finally {
    held.release();
  }
}

/**
 * `DELETE /packages/installed/<name>`: 204 once the tool removed it. A package others depend on is
 * kept, as the tool keeps it: opkg refuses, apk takes it out of its world but leaves it installed
 * for them; either is 409 with the tool's words.
 */
async function deleteInstalled({ ports, params }: Context) {
  const problem = valueProblem('name', params.name, PACKAGE_NAME);
  if (problem) throw validationFailed([problem], 'packages/installed: the request');
  const held = acquireLocks(ports, [], 'exclusive');
  try {
    const manager = managerOf(ports);
    if (!installedOne(ports, manager, params.name)) throw new ApiError(404, 'not_found', `No installed package ${params.name}`);
    const args = [manager.del, params.name];
    const result = run(ports, manager, args);
    if (installedOne(ports, manager, params.name)) {
      throw new ApiError(409, 'conflict', `${manager.tool} kept ${params.name}: ${summary(result) || `exit ${result.code}`}`);
    }
    if (result.code !== 0) throw new ApiError(500, 'internal_error', `${failure(manager, args, result)}; ${params.name} is removed`);
  } finally {
    held.release();
  }
  return plainResponse(204, undefined);
}

/** A custom feed as the API shows it; `id` is its name, the path of its record. */
interface FeedRecord extends Feed {
  id: string;
  filename: string;
  enabled: boolean;
  update_status: 'ok' | 'not_fetched' | null;
  managed: true;
}

/** The names of the feeds opkg reads before its custom ones: /etc/opkg.conf, then /etc/opkg/*.conf in glob order (libopkg opkg_conf.c). */
function namesBefore(ports: Ports, manager: Manager): Set<string> {
  const dir = manager.feedDirs[0];
  const earlier = ports.list(dir).filter((name) => name.endsWith('.conf')).sort().map((name) => `${dir}/${name}`).filter((file) => file < manager.feeds);
  return new Set([...manager.feedFiles, ...earlier].flatMap((file) => parseFeeds('opkg', ports.readFile(file) ?? '').map((feed) => feed.name)));
}

/**
 * The records of the custom feeds. opkg skips a name declared before ("Duplicate src declaration"):
 * such a feed is not `enabled`; apk reads every line. `update_status` is opkg's list of the feed:
 * `ok` fetched, `not_fetched` not since the last boot (its lists directory is a tmpfs); null under
 * apk, which fetches a missing or stale index itself when it next installs.
 */
function records(ports: Ports, manager: Manager, feeds: Placed[]): FeedRecord[] {
  const opkg = manager.tool === 'opkg';
  const seen = opkg ? namesBefore(ports, manager) : new Set<string>();
  const lists = opkg ? ports.list(listsDir(ports)) : [];
  return feeds.map(({ name, url }) => {
    const enabled = !seen.has(name);
    if (opkg) seen.add(name);
    const update_status = opkg ? (lists.includes(name) ? 'ok' : 'not_fetched') : null;
    return { id: name, name, url, filename: manager.feeds, enabled, update_status, managed: true };
  });
}

function customFeeds(ports: Ports, manager: Manager): { text: string | undefined; feeds: Placed[] } {
  const text = ports.readFile(manager.feeds);
  return { text, feeds: parseFeeds(manager.tool, text ?? '') };
}

/** The record of the feed of that name, as the files are now. */
function recordOf(ports: Ports, manager: Manager, name: string): FeedRecord {
  const { feeds } = customFeeds(ports, manager);
  return records(ports, manager, feeds)[feeds.indexOf(placed(feeds, name))];
}

function placed(feeds: Placed[], name: string): Placed {
  const feed = feeds.find((candidate) => candidate.name === name);
  if (!feed) throw new ApiError(404, 'not_found', `No custom feed ${name}`);
  return feed;
}

/** The feeds of every other file the tool reads: a new feed may not reuse their names (opkg skips a repeated one) or URLs. */
function otherFeeds(ports: Ports, manager: Manager): Placed[] {
  const suffix = manager.tool === 'opkg' ? '.conf' : '.list';
  const files = [...manager.feedFiles, ...manager.feedDirs.flatMap((dir) => ports.list(dir).filter((name) => name.endsWith(suffix)).map((name) => `${dir}/${name}`))];
  return files.filter((file) => file !== manager.feeds).flatMap((file) => parseFeeds(manager.tool, ports.readFile(file) ?? ''));
}

async function feedBody(request: Context['request'], path?: string): Promise<Feed> {
  const { bodyObject } = await import('../http/json-body.js');
  const sent = await bodyObject(request);
  // A PUT of a read: what the read adds is ignored; its id is the name.
  const { id, filename, enabled, update_status, managed, ...rest } = sent;
  const body = path === undefined ? sent : rest;
  // A PUT names the feed in its path; a name in its body must be that one.
  const errors: FieldError[] = bodyProblems(path === undefined || 'name' in body ? body : { ...body, name: path }, { name: FEED_NAME, url: FEED_URL });
  if (path !== undefined && body.name !== undefined && body.name !== path) errors.push({ field: 'name', code: 'conflict', message: `name must be ${path}, the feed of the path` });
  if (path !== undefined && id !== undefined && id !== null && id !== path) errors.push({ field: 'id', code: 'conflict', message: `id must be ${path}, the feed of the path` });
  if (errors.length) throw validationFailed(errors, 'packages/feeds: the request');
  return { name: body.name ?? path, url: body.url } as Feed;
}

/**
 * Writes the feeds file and runs the index update. When it fails the file is put back as it was
 * (removed when there was none) and the update runs again: when that one succeeds the new URL was to
 * blame, 422 on `url`; otherwise another feed fails, 503.
 */
function writeAndUpdate(ports: Ports, manager: Manager, before: string | undefined, after: string): void {
  ports.makeDirectory(manager.feeds.slice(0, manager.feeds.lastIndexOf('/')));
  ports.writeFileAtomic(manager.feeds, after);
  const result = run(ports, manager, ['update']);
  if (result.code === 0) return;
  if (before === undefined) ports.remove(manager.feeds);
  else ports.writeFileAtomic(manager.feeds, before);
  const said = `${failure(manager, ['update'], result)}; ${manager.feeds} is as it was`;
  if (run(ports, manager, ['update']).code === 0) {
    throw validationFailed([{ field: 'url', code: 'conflict', message: said }], 'packages/feeds: the request');
  }
  throw new ApiError(503, 'service_unavailable', said);
}

/** `GET /packages/feeds[/<name>]`: the custom feeds, paged as a collection, or one. */
async function getFeed({ ports, request, params }: Context) {
  const manager = managerOf(ports);
  if (params.name !== undefined) return jsonResponse(200, recordOf(ports, manager, params.name));
  const { page, headers } = pageOf(request.query, records(ports, manager, customFeeds(ports, manager).feeds), (feed) => feed.name);
  return jsonResponse(200, page, headers);
}

/** `POST /packages/feeds` `{name, url}`: adds the feed, then updates the package index: 201. */
async function postFeed({ ports, request }: Context) {
  const feed = await feedBody(request);
  const held = acquireLocks(ports, [], 'exclusive');
  try {
    const manager = managerOf(ports);
    const { text, feeds } = customFeeds(ports, manager);
    const taken = [...feeds, ...otherFeeds(ports, manager)].find((other) => other.name === feed.name || other.url === feed.url);
    if (taken) throw new ApiError(409, 'conflict', `A feed already has this ${taken.name === feed.name ? 'name' : 'URL'}: ${taken.name}`);
    writeAndUpdate(ports, manager, text, withFeed(manager.tool, text ?? '', feed));
    return jsonResponse(201, recordOf(ports, manager, feed.name));
  } finally {
    held.release();
  }
}

/** `PUT /packages/feeds/<name>` `{url}`: points the feed at another URL, then updates the index. */
async function putFeed({ ports, request, params }: Context) {
  const feed = await feedBody(request, params.name);
  const held = acquireLocks(ports, [], 'exclusive');
  try {
    const manager = managerOf(ports);
    const { text, feeds } = customFeeds(ports, manager);
    const old = placed(feeds, feed.name);
    const taken = [...feeds, ...otherFeeds(ports, manager)].find((other) => other !== old && other.url === feed.url);
    if (taken) throw new ApiError(409, 'conflict', `A feed already has this URL: ${taken.name}`);
    if (old.url !== feed.url) writeAndUpdate(ports, manager, text, replacedFeed(manager.tool, text!, old, feed));
    return jsonResponse(200, recordOf(ports, manager, feed.name));
  } finally {
    held.release();
  }
}

/**
 * `DELETE /packages/feeds/<name>`: drops the feed's lines, 204. No index update follows: opkg and
 * apk read the lists of the feeds configured, and a removed feed's is never read again.
 */
async function deleteFeed({ ports, params }: Context) {
  const held = acquireLocks(ports, [], 'exclusive');
  try {
    const manager = managerOf(ports);
    const { text, feeds } = customFeeds(ports, manager);
    ports.writeFileAtomic(manager.feeds, replacedFeed(manager.tool, text!, placed(feeds, params.name)));
  } finally {
    held.release();
  }
  return plainResponse(204, undefined);
}

const isFeeds = ({ route }: Context) => route.template.startsWith('/packages/feeds');

export const GET = (context: Context) => (isFeeds(context) ? getFeed(context) : getInstalled(context));
export const POST = (context: Context) => (isFeeds(context) ? postFeed(context) : postInstalled(context));
export const PUT = putFeed;
export const DELETE = (context: Context) => (isFeeds(context) ? deleteFeed(context) : deleteInstalled(context));
