import { parseDuration } from '../auth/duration.js';
import { findToken, mintProblems, mintToken, revokeToken, storedTokens, tokenRecord, type TokenRecord } from '../auth/token-admin.js';
import { ApiError } from '../http/errors.js';
import type { Ports } from '../platform/ports.js';

const USAGE = `usage:
  wrtapi-token create --name NAME --scope SCOPE [--scope SCOPE ...] [--expires-in N[smhd]]
                      [--allowed-cidr CIDR ...] [--rate N] [--burst N] [--force] [--json]
  wrtapi-token list [--json]
  wrtapi-token show NAME [--json]
  wrtapi-token revoke NAME
`;

const REPEATABLE = new Set(['scope', 'allowed-cidr']);
const VALUED = new Set(['name', 'scope', 'expires-in', 'allowed-cidr', 'rate', 'burst']);
const SWITCHES = new Set(['force', 'json']);
// The request field each option fills, to name the option in a validation message.
const OPTION_OF_FIELD: Record<string, string> = {
  name: '--name',
  scopes: '--scope',
  expires_in_seconds: '--expires-in',
  allowed_cidrs: '--allowed-cidr',
  rate: '--rate',
  burst: '--burst',
};

class UsageError extends Error {}

interface Parsed {
  positional: string[];
  values: Map<string, string[]>;
  switches: Set<string>;
}

function parseArgs(args: string[]): Parsed {
  const parsed: Parsed = { positional: [], values: new Map(), switches: new Set() };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (!arg.startsWith('--')) {
      parsed.positional.push(arg);
      continue;
    }
    const equals = arg.indexOf('=');
    const option = arg.slice(2, equals < 0 ? undefined : equals);
    if (SWITCHES.has(option) && equals < 0) {
      parsed.switches.add(option);
    } else if (VALUED.has(option)) {
      const value = equals < 0 ? args[++i] : arg.slice(equals + 1);
      if (value === undefined) throw new UsageError(`--${option} needs a value`);
      const values = parsed.values.get(option) ?? [];
      if (values.length && !REPEATABLE.has(option)) throw new UsageError(`--${option} may be given once`);
      parsed.values.set(option, [...values, value]);
    } else {
      throw new UsageError(`unknown option ${arg}`);
    }
  }
  return parsed;
}

/** A record's epoch seconds as a person reads them: RFC 3339 UTC. */
const when = (epochSeconds: number | null) => (epochSeconds === null ? undefined : new Date(epochSeconds * 1000).toISOString().replace('.000Z', 'Z'));

function describe(record: TokenRecord): string {
  return [
    `name:          ${record.name}`,
    `scopes:        ${record.scopes.join(' ')}`,
    `created_at:    ${when(record.created_at) ?? '-'}`,
    `expires_at:    ${when(record.expires_at) ?? 'never'}`,
    `allowed_cidrs: ${record.allowed_cidrs.join(' ') || 'any'}`,
    `rate/burst:    ${record.rate ?? 'default'}/${record.burst ?? 'default'}`,
    `last_used:     ${when(record.last_used_at) ?? 'never'}${record.last_used_ip ? ` from ${record.last_used_ip}` : ''}`,
  ].join('\n');
}

async function create(ports: Ports, parsed: Parsed): Promise<void> {
  const one = (option: string) => parsed.values.get(option)?.[0];
  const number = (option: string) => (one(option) === undefined ? undefined : Number(one(option)));
  const expiresIn = one('expires-in');
  const expiresInSeconds = expiresIn === undefined ? undefined : parseDuration(expiresIn);
  if (expiresIn !== undefined && expiresInSeconds === undefined) {
    throw new UsageError('--expires-in must be a positive integer followed by s, m, h or d');
  }
  const input = {
    name: one('name'),
    scopes: parsed.values.get('scope'),
    expires_in_seconds: expiresInSeconds,
    allowed_cidrs: parsed.values.get('allowed-cidr'),
    rate: number('rate'),
    burst: number('burst'),
  };
  const errors = mintProblems(ports, input, parsed.switches.has('force'));
  if (errors.length) {
    throw new UsageError(errors.map((error) => `${OPTION_OF_FIELD[error.field.replace(/\[\d+\]$/, '')]}: ${error.message}`).join('\n'));
  }
  const minted = await mintToken(ports, {
    name: input.name!,
    scopes: input.scopes!,
    expiresInSeconds,
    allowedCidrs: input.allowed_cidrs ?? [],
    rate: input.rate,
    burst: input.burst,
  });
  ports.writeStdout(
    parsed.switches.has('json')
      ? JSON.stringify(minted) + '\n'
      : `Created token ${minted.name}. Its bearer is shown this once; store it now:\n${minted.bearer}\n`,
  );
}

/** `wrtapi-token`: mints, lists, shows and revokes tokens in /etc/config/wrtapi. Returns the exit code. */
export async function runTokenCli(ports: Ports, args: string[]): Promise<number> {
  try {
    const [verb, ...rest] = args;
    const parsed = parseArgs(rest);
    const json = parsed.switches.has('json');
    const name = parsed.positional[0];
    if (verb === 'create' && parsed.positional.length === 0) {
      await create(ports, parsed);
    } else if (verb === 'list' && parsed.positional.length === 0) {
      const records = (await storedTokens(ports)).map(tokenRecord);
      ports.writeStdout(json ? JSON.stringify(records) + '\n' : records.map(describe).join('\n\n') + (records.length ? '\n' : ''));
    } else if (verb === 'show' && parsed.positional.length === 1) {
      const record = tokenRecord(await findToken(ports, name));
      ports.writeStdout(json ? JSON.stringify(record) + '\n' : describe(record) + '\n');
    } else if (verb === 'revoke' && parsed.positional.length === 1) {
      await revokeToken(ports, name);
      ports.writeStdout(`Revoked token ${name}\n`);
    } else {
      ports.writeStderr(USAGE);
      return 2;
    }
    return 0;
  } catch (error) {
    if (error instanceof UsageError || error instanceof ApiError) {
      ports.writeStderr(`wrtapi-token: ${error.message}\n`);
      return error instanceof UsageError ? 2 : 1;
    }
    throw error;
  }
}
