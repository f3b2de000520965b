/**
 * JSON Patch (RFC 6902) over parsed JSON values. It does not mutate its arguments: the result is a
 * fresh document that shares nothing with them. Loaded only for a JSON Patch request.
 */
import { ApiError } from '../http/errors.js';
import { cloneJson, isObject, jsonEqual, member, setMember, type JsonObject } from './json-values.js';

/**
 * `invalid`: the patch document itself is malformed. `unresolvable`: a location the operation needs
 * does not exist in the document. `test_failed`: a `test` operation found a different value.
 */
export type JsonPatchErrorKind = 'invalid' | 'unresolvable' | 'test_failed';

export class JsonPatchError extends Error {
  constructor(
    readonly kind: JsonPatchErrorKind,
    message: string,
  ) {
    super(message);
  }
}

type Operation =
  | { name: 'add' | 'replace' | 'test'; label: string; path: string[]; value: unknown }
  | { name: 'remove'; label: string; path: string[] }
  | { name: 'move' | 'copy'; label: string; path: string[]; from: string[] };

const operationNames = ['add', 'remove', 'replace', 'move', 'copy', 'test'] as const;

export function applyJsonPatch(document: unknown, operations: unknown): unknown {
  if (!Array.isArray(operations)) {
    throw new JsonPatchError('invalid', 'a JSON Patch must be an array of operations');
  }
  const parsed = operations.map(parseOperation);
  return parsed.reduce(applyOperation, cloneJson(document));
}

function parseOperation(raw: unknown, index: number): Operation {
  if (!isObject(raw)) throw new JsonPatchError('invalid', `operation ${index}: must be an object`);
  const name = member(raw, 'op');
  if (!isOperationName(name)) {
    throw new JsonPatchError('invalid', `operation ${index}: "op" must be one of ${operationNames.join(', ')}`);
  }
  const pathPointer = member(raw, 'path');
  if (typeof pathPointer !== 'string') {
    throw new JsonPatchError('invalid', `operation ${index} (${name}): "path" must be a string`);
  }
  const subject = `${name} ${showPointer(pathPointer)}`;
  const label = `operation ${index} (${subject})`;
  const path = parsePointer(pathPointer, `${label}: "path"`);
  switch (name) {
    case 'remove':
      if (path.length === 0) throw new JsonPatchError('invalid', `${label}: cannot remove the whole document`);
      return { name, label, path };
    case 'move':
    case 'copy': {
      const fromPointer = member(raw, 'from');
      if (typeof fromPointer !== 'string') throw new JsonPatchError('invalid', `${label}: "from" must be a string`);
      const from = parsePointer(fromPointer, `${label}: "from"`);
      if (name === 'move' && from.length < path.length && isPrefix(from, path)) {
        throw new JsonPatchError('invalid', `${label}: cannot move ${showPointer(fromPointer)} into itself`);
      }
      return { name, label: `operation ${index} (${subject} from ${showPointer(fromPointer)})`, path, from };
    }
    default: {
      // undefined cannot come from parsed JSON; treating it as absent keeps it out of documents.
      const value = member(raw, 'value');
      if (value === undefined) throw new JsonPatchError('invalid', `${label}: "value" is missing`);
      return { name, label, path, value: cloneJson(value) };
    }
  }
}

function applyOperation(document: unknown, op: Operation): unknown {
  switch (op.name) {
    case 'add':
      return add(document, op.path, op.value, op.label);
    case 'remove':
      remove(document, op.path, op.label);
      return document;
    case 'replace':
      return replace(document, op.path, op.value, op.label);
    case 'move': {
      const value = find(document, op.from, `${op.label}: "from"`);
      if (op.from.length === op.path.length && isPrefix(op.from, op.path)) return document;
      remove(document, op.from, op.label);
      return add(document, op.path, value, op.label);
    }
    case 'copy':
      return add(document, op.path, cloneJson(find(document, op.from, `${op.label}: "from"`)), op.label);
    case 'test':
      if (!jsonEqual(find(document, op.path, `${op.label}: path`), op.value)) {
        throw new JsonPatchError('test_failed', `${op.label}: value differs`);
      }
      return document;
  }
}

function add(document: unknown, path: string[], value: unknown, label: string): unknown {
  if (path.length === 0) return value;
  const parent = parentOf(document, path, label);
  const key = path[path.length - 1];
  if (!Array.isArray(parent)) setMember(parent, key, value);
  else if (key === '-') parent.push(value);
  else if (isArrayIndex(key) && Number(key) <= parent.length) parent.splice(Number(key), 0, value);
  else {
    throw new JsonPatchError('unresolvable', `${label}: no position "${key}" in an array of length ${parent.length}`);
  }
  return document;
}

function remove(document: unknown, path: string[], label: string): void {
  find(document, path, `${label}: path`);
  const parent = parentOf(document, path, label);
  const key = path[path.length - 1];
  if (Array.isArray(parent)) parent.splice(Number(key), 1);
  else delete parent[key];
}

function replace(document: unknown, path: string[], value: unknown, label: string): unknown {
  if (path.length === 0) return value;
  find(document, path, `${label}: path`);
  const parent = parentOf(document, path, label);
  const key = path[path.length - 1];
  if (Array.isArray(parent)) parent[Number(key)] = value;
  else setMember(parent, key, value);
  return document;
}

function find(document: unknown, path: string[], what: string): unknown {
  const value = lookup(document, path);
  if (value === undefined) throw new JsonPatchError('unresolvable', `${what} does not exist`);
  return value;
}

function parentOf(document: unknown, path: string[], label: string): JsonObject | unknown[] {
  const parent = lookup(document, path.slice(0, -1));
  if (Array.isArray(parent) || isObject(parent)) return parent;
  throw new JsonPatchError('unresolvable', `${label}: path does not exist`);
}

/** The value at `path`, or undefined when there is none. */
function lookup(document: unknown, path: string[]): unknown {
  return path.reduce<unknown>((value, token) => {
    if (Array.isArray(value)) return isArrayIndex(token) ? value[Number(token)] : undefined;
    return isObject(value) ? member(value, token) : undefined;
  }, document);
}

function parsePointer(pointer: string, what: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/') || /~([^01]|$)/.test(pointer)) {
    throw new JsonPatchError('invalid', `${what} is not a valid JSON Pointer`);
  }
  return pointer
    .slice(1)
    .split('/')
    .map((token) => token.replace(/~[01]/g, (escape) => (escape === '~0' ? '~' : '/')));
}

function showPointer(pointer: string): string {
  return pointer === '' ? '""' : pointer;
}

function isArrayIndex(token: string): boolean {
  return /^(0|[1-9][0-9]*)$/.test(token);
}

function isPrefix(prefix: string[], path: string[]): boolean {
  return prefix.length <= path.length && prefix.every((token, i) => token === path[i]);
}

function isOperationName(value: unknown): value is Operation['name'] {
  return operationNames.some((name) => name === value);
}

/** A resource's body after a JSON Patch, or the answer the spec gives for the patch's failure. */
export function patchedObject<T extends object>(document: T, patch: unknown): T {
  try {
    const result = applyJsonPatch(document, patch);
    if (result === null || typeof result !== 'object' || Array.isArray(result)) throw new ApiError(400, 'bad_request', 'The JSON Patch must leave an object');
    return result as T;
  } catch (error) {
    if (!(error instanceof JsonPatchError)) throw error;
    if (error.kind === 'test_failed') throw new ApiError(412, 'precondition_failed', error.message);
    if (error.kind === 'invalid') throw new ApiError(400, 'bad_request', error.message);
    throw new ApiError(422, 'validation_failed', error.message, { errors: [{ field: '', code: 'conflict', message: error.message }] });
  }
}
