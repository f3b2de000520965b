import { acquireLocks } from '../config/locks.js';
import { commitPackage } from '../config/commit.js';
import { configPath, readPackage, takeSnapshot } from '../config/store.js';
import { ApiError, type FieldError } from '../http/errors.js';
import type { Ports } from '../platform/ports.js';
import { addSection, findSection, removeSection, serializeUci, type UciPackage } from '../uci/index.js';
import { parseCidr } from './cidr.js';
import { hashBearer, hex } from './hash.js';
import { parseScope } from './scopes.js';
import { scopeProblem } from './scope-tree.js';
import { BEARER_INDEX, parseTokenState, SERVICE_PACKAGE, TOKEN_TYPE, tokensIn, tokenStatePath, withLastUse, type Token } from './tokens.js';

// The name is also the UCI section name, so it keeps to UCI's charset.
const TOKEN_NAME = /^[A-Za-z0-9_]{1,64}$/;

const BEARER_BYTES = 16;

function requireBytes(random: Uint8Array, count: number): void {
  if (random.length !== count) throw new RangeError(`expected ${count} random bytes, got ${random.length}`);
}

/** A bearer from 16 random bytes (128 bits): `wrtapi_` and 32 lowercase hex digits, URL- and header-safe. */
export function newBearer(random: Uint8Array): string {
  requireBytes(random, BEARER_BYTES);
  return `wrtapi_${hex(random)}`;
}

// 7 bytes make `<salt>:<bearer>` 54 bytes, which SHA-256 hashes in one 64-byte block instead of
// two: the hash is the costliest JavaScript an authenticated request runs. A salt only has to
// differ between tokens; the bearer's 128 random bits are what resists guessing.
const SALT_BYTES = 7;

/** A salt from SALT_BYTES random bytes: 14 lowercase hex digits. */
export function newSalt(random: Uint8Array): string {
  requireBytes(random, SALT_BYTES);
  return hex(random);
}

/** What a client may see of a token: never the salt or the hash. */
export interface TokenRecord {
  name: string;
  scopes: string[];
  created_at: number | null;
  expires_at: number | null;
  allowed_cidrs: string[];
  rate: number | null;
  burst: number | null;
  last_used_at: number | null;
  last_used_ip: string | null;
}

export function tokenRecord(token: Token): TokenRecord {
  return {
    name: token.name,
    scopes: token.scopes,
    created_at: token.createdAt ?? null,
    expires_at: token.expiresAt ?? null,
    allowed_cidrs: token.allowedCidrs,
    rate: token.rate ?? null,
    burst: token.burst ?? null,
    last_used_at: token.lastUsedAt ?? null,
    last_used_ip: token.lastUsedIp ?? null,
  };
}

const lastUseInRam = (ports: Ports, name: string) => parseTokenState(ports.readFile(tokenStatePath(name))).lastUse;

/** Every token, with its last use as recent as the RAM stamps know it. */
export async function storedTokens(ports: Ports): Promise<Token[]> {
  return tokensIn(await readPackage(ports, SERVICE_PACKAGE)).map((token) => withLastUse(token, lastUseInRam(ports, token.name)));
}

export async function findToken(ports: Ports, name: string): Promise<Token> {
  const token = (await storedTokens(ports)).find((candidate) => candidate.name === name);
  if (!token) throw new ApiError(404, 'not_found', `No token named ${name}`);
  return token;
}

export interface MintInput {
  name: string;
  scopes: string[];
  expiresInSeconds?: number;
  allowedCidrs: string[];
  rate?: number;
  burst?: number;
}

const MINT_FIELDS = ['name', 'scopes', 'expires_in_seconds', 'allowed_cidrs', 'rate', 'burst'];

function positiveInteger(value: unknown): boolean {
  return typeof value === 'number' && Number.isInteger(value) && value > 0;
}

/**
 * The field errors of a mint request, shared by `POST /tokens` and the CLI. `force` skips only the
 * check of scopes against the scope tree and the router's packages, never their syntax.
 */
export function mintProblems(ports: Ports, input: Record<string, unknown>, force: boolean): FieldError[] {
  const isPackage = (name: string) => ports.stat(configPath(name)) !== undefined;
  const errors: FieldError[] = [];
  for (const field of Object.keys(input)) {
    if (!MINT_FIELDS.includes(field)) errors.push({ field, code: 'unknown_field', message: `${field} is not a token field` });
  }
  const { name, scopes, expires_in_seconds, allowed_cidrs, rate, burst } = input;
  if (name === undefined || name === null) errors.push({ field: 'name', code: 'required', message: 'name is required' });
  else if (typeof name !== 'string') errors.push({ field: 'name', code: 'invalid_type', message: 'name must be a string' });
  else if (!TOKEN_NAME.test(name)) {
    errors.push({ field: 'name', code: 'invalid_format', message: 'name must be 1 to 64 characters of [A-Za-z0-9_]' });
  }
  if (scopes === undefined || scopes === null) {
    errors.push({ field: 'scopes', code: 'required', message: 'at least one scope is required' });
  } else if (!Array.isArray(scopes)) {
    errors.push({ field: 'scopes', code: 'invalid_type', message: 'scopes must be an array of strings' });
  } else if (scopes.length === 0) {
    errors.push({ field: 'scopes', code: 'out_of_range', message: 'at least one scope is required' });
  } else {
    scopes.forEach((scope, i) => {
      if (typeof scope !== 'string') {
        errors.push({ field: `scopes[${i}]`, code: 'invalid_type', message: 'a scope is a string' });
        return;
      }
      const parsed = parseScope(scope);
      const problem = !parsed.ok ? parsed.reason : force ? undefined : scopeProblem(scope, isPackage);
      if (problem !== undefined) errors.push({ field: `scopes[${i}]`, code: 'invalid_format', message: problem });
    });
  }
  if (expires_in_seconds !== undefined && expires_in_seconds !== null && !positiveInteger(expires_in_seconds)) {
    errors.push({ field: 'expires_in_seconds', code: 'out_of_range', message: 'expires_in_seconds must be a positive integer' });
  }
  if (allowed_cidrs !== undefined && allowed_cidrs !== null) {
    if (!Array.isArray(allowed_cidrs)) {
      errors.push({ field: 'allowed_cidrs', code: 'invalid_type', message: 'allowed_cidrs must be an array of CIDRs' });
    } else {
      allowed_cidrs.forEach((cidr, i) => {
        if (typeof cidr !== 'string' || parseCidr(cidr) === undefined) {
          errors.push({ field: `allowed_cidrs[${i}]`, code: 'invalid_format', message: `${JSON.stringify(cidr)} is not an IPv4 or IPv6 CIDR` });
        }
      });
    }
  }
  for (const [field, value] of [['rate', rate], ['burst', burst]] as const) {
    if (value !== undefined && value !== null && !positiveInteger(value)) {
      errors.push({ field, code: typeof value === 'number' ? 'out_of_range' : 'invalid_type', message: `${field} must be a positive integer` });
    }
  }
  return errors;
}

/**
 * Stores a new token and returns its cleartext bearer, the only time it exists outside the caller.
 * Only the salt and the salted hash are written.
 */
export async function mintToken(ports: Ports, input: MintInput): Promise<{ name: string; bearer: string }> {
  const held = acquireLocks(ports, [SERVICE_PACKAGE], 'shared');
  try {
    const snapshot = await takeSnapshot(ports, SERVICE_PACKAGE);
    if (findSection(snapshot.model, input.name)) {
      throw new ApiError(409, 'conflict', `A token or section named ${input.name} already exists`);
    }
    const bearer = newBearer(ports.randomBytes(BEARER_BYTES));
    const salt = newSalt(ports.randomBytes(SALT_BYTES));
    const now = Math.floor(ports.now() / 1000);
    const options = addSection(snapshot.model, TOKEN_TYPE, input.name).options;
    options.set('salt', salt);
    options.set('hash', hashBearer(ports, salt, bearer));
    options.set('scope', input.scopes);
    options.set('created', String(now));
    if (input.expiresInSeconds !== undefined) options.set('expires', String(now + input.expiresInSeconds));
    if (input.allowedCidrs.length) options.set('allowed_cidr', input.allowedCidrs);
    if (input.rate !== undefined) options.set('rate', String(input.rate));
    if (input.burst !== undefined) options.set('burst', String(input.burst));
    keepLastUse(ports, snapshot.model);
    commitPackage(ports, snapshot, serializeUci(snapshot.model));
    return { name: input.name, bearer };
  } finally {
    held.release();
  }
}

/**
 * Puts the RAM stamps of last use into the token sections, for a commit that writes the file anyway:
 * only then does a stamp reach flash, so a reboot loses at most the stamps since.
 */
function keepLastUse(ports: Ports, model: UciPackage): void {
  for (const token of tokensIn(model)) {
    const latest = withLastUse(token, lastUseInRam(ports, token.name));
    if (latest === token) continue;
    const options = findSection(model, token.name)!.options;
    options.set('last_used_at', String(latest.lastUsedAt));
    options.set('last_used_ip', latest.lastUsedIp!);
  }
}

/** Removes the bearer index entries naming a revoked token. */
function forgetBearer(ports: Ports, name: string): void {
  for (const file of ports.list(BEARER_INDEX)) {
    if (!file.startsWith('.') && ports.readFile(`${BEARER_INDEX}/${file}`) === name) ports.remove(`${BEARER_INDEX}/${file}`);
  }
}

/** Removes the token and its state in RAM (bucket, last use, bearer index), so a new token of the same name starts fresh. */
export async function revokeToken(ports: Ports, name: string): Promise<void> {
  const held = acquireLocks(ports, [SERVICE_PACKAGE], 'shared');
  try {
    const snapshot = await takeSnapshot(ports, SERVICE_PACKAGE);
    const section = findSection(snapshot.model, name);
    if (!section || section.type !== TOKEN_TYPE) throw new ApiError(404, 'not_found', `No token named ${name}`);
    removeSection(snapshot.model, name);
    keepLastUse(ports, snapshot.model);
    commitPackage(ports, snapshot, serializeUci(snapshot.model));
    ports.remove(tokenStatePath(name));
    forgetBearer(ports, name);
  } finally {
    held.release();
  }
}
