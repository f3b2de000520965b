import { type UciPackage, type UciSection } from '../uci/index.js';
import { constantTimeEqual, hashBearer } from './hash.js';

export const SERVICE_PACKAGE = 'wrtapi';
export const TOKEN_TYPE = 'token';
const LAST_USED_INTERVAL_SECONDS = 60;

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
export function findByBearer(tokens: Token[], bearer: string): Token | undefined {
  let found: Token | undefined;
  for (const token of tokens) {
    if (token.salt && constantTimeEqual(hashBearer(token.salt, bearer), token.hash)) found = token;
  }
  return found;
}

export function rateLimitStatePath(name: string): string {
  return `/tmp/wrtapi/ratelimit/${name}`;
}

/** `last_used_at`/`last_used_ip` are stamped at most once a minute. */
export function stampDue(token: Token, nowMs: number): boolean {
  return token.lastUsedAt === undefined || Math.floor(nowMs / 1000) - token.lastUsedAt >= LAST_USED_INTERVAL_SECONDS;
}
