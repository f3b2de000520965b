import { acquireLocks } from '../config/locks.js';
import { ApiError } from '../http/errors.js';
import { jsonResponse, plainResponse } from '../http/response.js';
import { bodyProblems, PACKAGE_NAME, valueProblem } from '../packages/grammar.js';
import { failure, listInstalled, listsMissing, managerOf, run, summary, type Manager } from '../packages/managers.js';
import type { Ports } from '../platform/ports.js';
import type { Context } from './context.js';
import { pageOf } from './paging.js';

const PATH = 'packages/installed';

function invalid(errors: ReturnType<typeof bodyProblems>): ApiError {
  return new ApiError(422, 'validation_failed', `${PATH}: the request has ${errors.length} invalid field(s)`, { errors });
}

function installedOne(ports: Ports, manager: Manager, name: string) {
  return listInstalled(ports, manager).find((record) => record.name === name);
}

/** `GET /packages/installed[/<name>]`: the package database, paged as a collection, or one package. */
export async function GET({ ports, request, params }: Context) {
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
 * it has exited: 201 with the record the database then holds. opkg first updates its lists when it
 * has none (they live in a tmpfs); what the tool changed before failing is left as it left it, and
 * for a name no feed offers it changes nothing.
 */
export async function POST({ ports, request }: Context) {
  const { parseJsonObject } = await import('../http/json-body.js');
  const body = parseJsonObject(await request.body());
  const errors = bodyProblems(body, { name: PACKAGE_NAME });
  if (errors.length) throw invalid(errors);
  const name = body.name as string;
  const held = acquireLocks(ports, [], 'exclusive');
  try {
    const manager = managerOf(ports);
    const present = installedOne(ports, manager, name);
    if (present) throw new ApiError(409, 'conflict', `${name} is already installed (${present.version})`);
    if (listsMissing(ports, manager)) {
      const updated = run(ports, manager, ['update']);
      if (updated.code !== 0) throw new ApiError(503, 'service_unavailable', `${failure(manager, ['update'], updated)}; nothing was installed`);
    }
    const args = [manager.add, name];
    const result = run(ports, manager, args);
    const record = installedOne(ports, manager, name);
    if (result.code === 0 && record) return jsonResponse(201, record);
    if (record) throw new ApiError(500, 'internal_error', `${failure(manager, args, result)}; ${name} is installed`);
    if (`${result.stdout}\n${result.stderr}`.includes(manager.unknown(name))) {
      throw invalid([{ field: 'name', code: 'not_in_enum', message: `No feed offers ${name}: ${summary(result)}` }]);
    }
    throw new ApiError(500, 'internal_error', `${failure(manager, args, result)}; ${name} is not installed`);
  } finally {
    held.release();
  }
}

/**
 * `DELETE /packages/installed/<name>`: 204 once the tool removed it. A package others depend on is
 * kept, as the tool keeps it: opkg refuses, apk takes it out of its world but leaves it installed
 * for them; either is 409 with the tool's words.
 */
export async function DELETE({ ports, params }: Context) {
  const problem = valueProblem('name', params.name, PACKAGE_NAME);
  if (problem) throw invalid([problem]);
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
