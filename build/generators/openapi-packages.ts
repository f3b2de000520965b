// The /packages paths of the OpenAPI document and their schemas: the package database and the custom
// feeds, served by src/handlers/packages-*.ts over src/packages/, whose patterns these are.
import type { Properties } from '../../src/openapi/objects.js';
import { IDEMPOTENT, json, ref, type Operation } from '../../src/openapi/operations.js';
import { TEXT } from './openapi-text.js';
import { deferred, named } from './deferred.js';
import { FEED_NAME, FEED_URL, FEED_URL_MAX, PACKAGE_NAME } from '../../src/packages/grammar.js';

const READ = [400, 401, 403, 404, 429, 500, 503];
const WRITE = [400, 401, 403, 404, 409, 422, 423, 429, 500, 503];
const LOCK = 'Takes the global lock exclusively: 423 while another write runs.';

const cursor = {
  name: 'cursor',
  in: 'query',
  required: false,
  schema: { type: 'string', pattern: '^c_[A-Za-z0-9][A-Za-z0-9+._-]*$' },
  description: '`X-Next-Cursor` of the previous page; one that names no current item answers 400 `invalid_cursor`.',
};
const nameParameter = (schema: Record<string, unknown>) => [{ name: 'name', in: 'path', required: true, schema }];
const list = (what: string, schema: string) => ({
  200: { description: `A page of ${what}, by name.`, headers: named('Link', 'X-Next-Cursor'), content: json({ type: 'array', items: ref('schemas', schema) }) },
});
const one = (schema: string, description = 'The record.') => ({ description, headers: named(), content: json(ref('schemas', schema)) });
const gone = { 204: { description: 'Done: no body.', headers: named() } };

export function packagePaths(): Record<string, Operation> {
  const feedUpdate =
    'then runs `opkg update` or `apk update`. When the update fails the file is put back: 422 on `url` when the tool named it, else 503. ' +
    '409 when another feed has the URL.';
  return {
    '/packages/installed': {
      get: deferred('List the installed packages', 'packages', READ, list('the package database', 'Package'), {
        operationId: 'listPackages',
        description: TEXT.paged,
        parameters: [cursor, ref('parameters', 'Limit')],
      }),
      post: deferred('Install a package', 'packages', WRITE, {
        200: { ...one('Package', 'Installed already: nothing ran.'), headers: named('Idempotent-Replayed') },
        201: { ...one('Package', 'Installed, as the database now holds it.'), headers: named('Idempotent-Replayed') },
      }, {
        operationId: 'installPackage',
        description:
          'Runs `opkg install` (OpenWrt 24.10 and older; `opkg update` first when opkg has no lists) or `apk add` (25.12 and later) and answers once it exits. ' +
          'A package installed already answers 200 with its record and runs nothing. ' +
          'A `name` no feed offers is 422 `not_in_enum`; another failure 500 with the tool\'s last lines. ' +
          LOCK,
        parameters: IDEMPOTENT,
        requestBody: { required: true, content: json(ref('schemas', 'PackageRequest')) },
      }),
    },
    '/packages/installed/{name}': {
      parameters: nameParameter({ type: 'string', pattern: PACKAGE_NAME }),
      get: deferred('Read an installed package', 'packages', READ, { 200: one('Package') }, { operationId: 'getPackage' }),
      delete: deferred('Remove a package', 'packages', WRITE, gone, {
        operationId: 'removePackage',
        description: 'Runs `opkg remove` or `apk del`; a `name` off the pattern is 422. 409 with the tool\'s words when it keeps the package for others that depend on it. ' + LOCK,
      }),
    },
    '/packages/feeds': {
      get: deferred('List the custom feeds', 'packages', READ, list('the custom feeds', 'Feed'), { operationId: 'listFeeds', description: TEXT.paged, parameters: [cursor, ref('parameters', 'Limit')] }),
      post: deferred('Add a feed', 'packages', WRITE, { 201: { ...one('Feed', 'Added.'), headers: named('Idempotent-Replayed') } }, {
        operationId: 'createFeed',
        description:
          'Adds a `src/gz <name> <url>` line to /etc/opkg/customfeeds.conf, or the URL under a `# wrtapi-feed: <name>` line to /etc/apk/repositories.d/customfeeds.list, ' +
          `${feedUpdate} 409 as well when a feed has the \`name\`. ${LOCK}`,
        parameters: IDEMPOTENT,
        requestBody: { required: true, content: json(ref('schemas', 'FeedRequest')) },
      }),
    },
    '/packages/feeds/{name}': {
      parameters: nameParameter({ type: 'string' }),
      get: deferred('Read a custom feed', 'packages', READ, { 200: one('Feed') }, { operationId: 'getFeed' }),
      put: deferred('Point a feed at another URL', 'packages', WRITE, { 200: one('Feed') }, {
        operationId: 'replaceFeed',
        description: `Rewrites the feed's line with \`url\` (a \`name\` or \`id\` sent must be the path's; the rest a read adds is ignored), ${feedUpdate} ${LOCK}`,
        requestBody: { required: true, content: json(ref('schemas', 'FeedReplace')) },
      }),
      delete: deferred('Remove a custom feed', 'packages', WRITE, gone, { operationId: 'deleteFeed', description: `No index update follows. ${LOCK}` }),
    },
  };
}

const url = { type: 'string', pattern: FEED_URL, maxLength: FEED_URL_MAX, description: 'http(s) or file URL: opkg\'s feed directory, or apk\'s `packages.adb`.' };
const feedName = { type: 'string', pattern: FEED_NAME };
const name = { type: 'string', description: 'The name.' };

export const PACKAGE_SCHEMAS: Properties = {
  Package: {
    type: 'object',
    required: ['id', 'name', 'version', 'installed', 'managed'],
    properties: {
      id: name,
      name: { type: 'string' },
      version: { type: 'string' },
      installed: { type: 'boolean' },
      managed: { type: 'boolean', description: 'Not only a dependency: in apk\'s world, or not opkg\'s `Auto-Installed`.' },
    },
  },
  PackageRequest: {
    type: 'object',
    required: ['name'],
    additionalProperties: false,
    properties: { name: { type: 'string', pattern: PACKAGE_NAME, description: 'Letters, digits and `+ . _ -`, a letter or digit first; never a package file name.' } },
  },
  Feed: {
    type: 'object',
    required: ['id', 'name', 'url', 'filename', 'enabled', 'update_status', 'managed'],
    properties: {
      id: name,
      name: { type: 'string' },
      url: { type: 'string' },
      filename: { type: 'string' },
      enabled: { type: 'boolean', description: 'False when opkg skips it for a name declared before.' },
      update_status: { type: ['string', 'null'], enum: ['ok', 'not_fetched', null], description: 'Whether opkg holds its list; null under apk.' },
      managed: { type: 'boolean' },
    },
  },
  FeedRequest: { type: 'object', required: ['name', 'url'], additionalProperties: false, properties: { name: feedName, url } },
  FeedReplace: {
    type: 'object',
    required: ['url'],
    additionalProperties: false,
    properties: { name: feedName, url, id: { type: ['string', 'null'] }, filename: {}, enabled: {}, update_status: {}, managed: {} },
  },
};
