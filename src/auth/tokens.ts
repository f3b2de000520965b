import type { Ports } from '../platform/ports.js';
import { type UciPackage, type UciSection } from '../uci/index.js';
import { constantTimeEqual, hashBearer } from './hash.js';

export const SERVICE_PACKAGE = 'wrtapi';
export const TOKEN_TYPE = 'token';
export const LAST_USED_INTERVAL_SECONDS = 60;

/** A token as stored: one named `token` section of /etc/config/wrtapi. */
export interface Token {
  name: string;
  salt: string;
  hash: string;
  scopes: string[];
  createdAt?: number;
  expiresAt?: number;
  allowedCidrs: string[];
  rate?: number;
  burst?: number;
  lastUsedAt?: number;
  lastUsedIp?: string;
}

function list(section: UciSection, option: string): string[] {
  const value = section.options.get(option);
  return value === undefined ? [] : typeof value === 'string' ? value.split(/\s+/).filter(Boolean) : value;
}

function scalar(section: UciSection, option: string): string | undefined {
  const value = section.options.get(option);
  return typeof value === 'string' ? value : undefined;
}

function integer(section: UciSection, option: string): number | undefined {
  const value = scalar(section, option);
  return value !== undefined && /^\d+$/.test(value) ? Number(value) : undefined;
}

export function tokensIn(model: UciPackage): Token[] {
  return model.sections
    .filter((section) => section.type === TOKEN_TYPE && !section.anonymous)
    .map((section) => ({
      name: section.name,
      salt: scalar(section, 'salt') ?? '',
      hash: scalar(section, 'hash') ?? '',
      scopes: list(section, 'scope'),
      createdAt: integer(section, 'created'),
      expiresAt: integer(section, 'expires'),
      allowedCidrs: list(section, 'allowed_cidr'),
      rate: integer(section, 'rate') || undefined,
      burst: integer(section, 'burst') || undefined,
      lastUsedAt: integer(section, 'last_used_at'),
      lastUsedIp: scalar(section, 'last_used_ip'),
    }));
}

/** Whether the bearer is the token's: its salted hash, compared in constant time. */
function isBearerOf(ports: Ports, token: Token, bearer: string): boolean {
  return !!token.salt && constantTimeEqual(hashBearer(ports, token.salt, bearer), token.hash);
}

export const BEARER_INDEX = '/tmp/wrtapi/bearers';

/** 16 bits of a cheap hash of the bearer: an index bucket, telling nothing usable of 128 random bits. */
export function bearerBucket(bearer: string): string {
  let hash = 5381;
  for (let i = 0; i < bearer.length; i++) hash = (hash * 33 + bearer.charCodeAt(i)) % 0x10000;
  return hash.toString(16);
}

/**
 * The token a bearer belongs to. Checking a bearer costs a salted hash, 0.65M instructions or more
 * in QuickJS's interpreter (0.2M with wrtapi-bytecode's), so rather than every token's, a request
 * checks first the token its bucket names in RAM (the last the bearers of that bucket matched), and
 * every token's only when that one fails. An entry only chooses which token to check first, so one
 * that is stale or planted grants nothing.
 */
export function tokenOfBearer(ports: Ports, tokens: Token[], bearer: string): Token | undefined {
  const entry = `${BEARER_INDEX}/${bearerBucket(bearer)}`;
  // The index only saves time: one that cannot be read or written leaves the search to answer.
  let name: string | undefined;
  try {
    name = ports.readFile(entry);
  } catch {}
  const named = tokens.find((token) => token.name === name);
  if (named && isBearerOf(ports, named, bearer)) return named;
  let found: Token | undefined;
  // Every token is checked, so the time taken does not tell which matched.
  for (const token of tokens) if (token !== named && isBearerOf(ports, token, bearer)) found = token;
  try {
    if (found) {
      ports.makeDirectory(BEARER_INDEX);
      ports.writeFileAtomic(entry, found.name);
    }
  } catch {}
  return found;
}

export interface LastUse {
  /** Epoch seconds. */
  at: number;
  ip: string;
}

/** A token's per-request state, in RAM: its rate-limit bucket and its last-use stamp. */
export interface TokenState {
  tokens: number;
  /** Epoch milliseconds of the bucket's last update; 0 when there is none. */
  at: number;
  lastUse?: LastUse;
}

export function tokenStatePath(name: string): string {
  return `/tmp/wrtapi/tokens/${name}`;
}

/** `<bucket> <at ms> [<last use s> <ip>]`; a missing or garbled file is a fresh state. */
export function parseTokenState(text: string | undefined): TokenState {
  const [tokens, at, usedAt, ip] = (text ?? '').split(' ');
  return { tokens: Number(tokens), at: Number(at) || 0, lastUse: ip ? { at: Number(usedAt), ip } : undefined };
}

/**
 * The token with its last use as recent as it is known: stamps live in RAM and reach the
 * configuration only when the file is written anyway, so the later of the two wins.
 */
export function withLastUse(token: Token, lastUse: LastUse | undefined): Token {
  return lastUse && !(token.lastUsedAt! >= lastUse.at) ? { ...token, lastUsedAt: lastUse.at, lastUsedIp: lastUse.ip } : token;
}
