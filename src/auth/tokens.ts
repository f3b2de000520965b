import type { Ports } from '../platform/ports.js';
import { type UciPackage, type UciSection } from '../uci/index.js';
import { constantTimeEqual, hashBearer, sha256Hex } from './hash.js';

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

export function isoTime(epochSeconds: number | undefined): string | null {
  return epochSeconds === undefined ? null : new Date(epochSeconds * 1000).toISOString().replace('.000Z', 'Z');
}

/** The token a bearer belongs to. Every stored hash is compared in constant time. */
function findByBearer(tokens: Token[], bearer: string): Token | undefined {
  let found: Token | undefined;
  for (const token of tokens) {
    if (token.salt && constantTimeEqual(hashBearer(token.salt, bearer), token.hash)) found = token;
  }
  return found;
}

export const BEARER_INDEX = '/tmp/wrtapi/bearers';
/** Hex digits of a token's stored hash an index entry keeps: enough to tell a token minted again under its name. */
const MARK_LENGTH = 16;

/**
 * The token a bearer belongs to. Searching hashes the bearer with every token's salt, about a million
 * instructions a token, on every request. So a bearer once found is indexed in RAM under its own
 * SHA-256, naming its token and the start of that token's stored hash. No other bearer has that
 * SHA-256, so an entry is only ever found by the bearer the search matched. The stored hash must
 * still start the same, or the token was revoked or minted again and the bearer is searched anew.
 * Only root writes /tmp/wrtapi, as only root writes the store.
 */
export function tokenOfBearer(ports: Ports, tokens: Token[], bearer: string): Token | undefined {
  const entry = `${BEARER_INDEX}/${sha256Hex(bearer)}`;
  // The index only saves time: one that cannot be read or written leaves the search to answer.
  let text = '';
  try {
    text = ports.readFile(entry) ?? '';
  } catch {}
  const [name, mark] = text.split(' ');
  const indexed = tokens.find((token) => token.name === name);
  if (indexed && mark?.length === MARK_LENGTH && indexed.hash.startsWith(mark)) return indexed;
  const found = findByBearer(tokens, bearer);
  try {
    if (found) {
      ports.makeDirectory(BEARER_INDEX);
      ports.writeFileAtomic(entry, `${found.name} ${found.hash.slice(0, MARK_LENGTH)}`);
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
