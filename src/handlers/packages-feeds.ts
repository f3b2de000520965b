import { acquireLocks } from '../config/locks.js';
import { ApiError, type FieldError } from '../http/errors.js';
import { jsonResponse, plainResponse } from '../http/response.js';
import { parseFeeds, replacedFeed, withFeed, type Feed, type Placed } from '../packages/feeds.js';
import { bodyProblems, FEED_NAME, FEED_URL } from '../packages/grammar.js';
import { failure, managerOf, run, type Manager } from '../packages/managers.js';
import type { Ports } from '../platform/ports.js';
import type { Context } from './context.js';
import { pageOf } from './paging.js';

const record = ({ name, url }: Feed): Feed => ({ name, url });

function customFeeds(ports: Ports, manager: Manager): { text: string | undefined; feeds: Placed[] } {
  const text = ports.readFile(manager.feeds);
  return { text, feeds: parseFeeds(manager.tool, text ?? '') };
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
  const { parseJsonObject } = await import('../http/json-body.js');
  const body = parseJsonObject(await request.body());
  // A PUT names the feed in its path; a name in its body must be that one.
  const errors: FieldError[] = bodyProblems(path === undefined || 'name' in body ? body : { ...body, name: path }, { name: FEED_NAME, url: FEED_URL });
  if (path !== undefined && body.name !== undefined && body.name !== path) errors.push({ field: 'name', code: 'conflict', message: `name must be ${path}, the feed of the path` });
  if (errors.length) throw new ApiError(422, 'validation_failed', `packages/feeds: the request has ${errors.length} invalid field(s)`, { errors });
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
    throw new ApiError(422, 'validation_failed', 'packages/feeds: the feed\'s index could not be fetched', { errors: [{ field: 'url', code: 'conflict', message: said }] });
  }
  throw new ApiError(503, 'service_unavailable', said);
}

/** `GET /packages/feeds[/<name>]`: the custom feeds, paged as a collection, or one. */
export async function GET({ ports, request, params }: Context) {
  const { feeds } = customFeeds(ports, managerOf(ports));
  if (params.name !== undefined) return jsonResponse(200, record(placed(feeds, params.name)));
  const { page, headers } = pageOf(request.query, feeds.map(record), (feed) => feed.name);
  return jsonResponse(200, page, headers);
}

/** `POST /packages/feeds` `{name, url}`: adds the feed, then updates the package index: 201. */
export async function POST({ ports, request }: Context) {
  const feed = await feedBody(request);
  const held = acquireLocks(ports, [], 'exclusive');
  try {
    const manager = managerOf(ports);
    const { text, feeds } = customFeeds(ports, manager);
    const taken = [...feeds, ...otherFeeds(ports, manager)].find((other) => other.name === feed.name || other.url === feed.url);
    if (taken) throw new ApiError(409, 'conflict', `A feed already has this ${taken.name === feed.name ? 'name' : 'URL'}: ${taken.name}`);
    writeAndUpdate(ports, manager, text, withFeed(manager.tool, text ?? '', feed));
  } finally {
    held.release();
  }
  return jsonResponse(201, feed);
}

/** `PUT /packages/feeds/<name>` `{url}`: points the feed at another URL, then updates the index. */
export async function PUT({ ports, request, params }: Context) {
  const feed = await feedBody(request, params.name);
  const held = acquireLocks(ports, [], 'exclusive');
  try {
    const manager = managerOf(ports);
    const { text, feeds } = customFeeds(ports, manager);
    const old = placed(feeds, feed.name);
    const taken = [...feeds, ...otherFeeds(ports, manager)].find((other) => other !== old && other.url === feed.url);
    if (taken) throw new ApiError(409, 'conflict', `A feed already has this URL: ${taken.name}`);
    if (old.url !== feed.url) writeAndUpdate(ports, manager, text, replacedFeed(manager.tool, text!, old, feed));
  } finally {
    held.release();
  }
  return jsonResponse(200, feed);
}

/**
 * `DELETE /packages/feeds/<name>`: drops the feed's lines, 204. No index update follows: opkg and
 * apk read the lists of the feeds configured, and a removed feed's is never read again.
 */
export async function DELETE({ ports, params }: Context) {
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
