// /etc/dropbear/authorized_keys as dropbear 2024.86 reads it (svr-authpubkey.c checkpubkey_line,
// svr-authpubkeyoptions.c; OpenWrt 24.10's 100-pubkey_path.patch puts root's file there): a line
// of at most 4200 bytes is `[options<blank>]<type> <base64>[ <comment>]`, options one token (blanks
// only inside quotes) right before the type, exactly one space after the type. A line starting
// with blanks holds a key only after options. Lines end at LF or CR. Any option dropbear does not
// know makes it refuse the key. Pure: the route module reads and writes the file.
import type { FieldError } from '../http/errors.js';
import { hex, sha256, utf8Bytes } from '../auth/hash.js';
import { KEY_TYPES } from '../openapi/authorized-keys.js';
import type { JsonObject } from '../resources/model.js';

const MAX_LINE = 4200;
const MIN_RSA_BITS = 1024;
const FLAGS = ['no-port-forwarding', 'no-agent-forwarding', 'no-x11-forwarding', 'no-pty', 'restrict', 'no-touch-required', 'verify-required'];
const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** An entry as the API shows it; `line` is the file's line it came from, or the one a write makes. */
export interface KeyEntry {
  id: string;
  type: string;
  key: string;
  comment?: string;
  options?: string;
  fingerprint: string;
}

/** What one line is: a key dropbear would accept, a line holding none by design, or neither. */
export type LineKind = { entry: KeyEntry } | 'blank' | 'comment' | 'malformed';

/** Strict base64 (canonical padding); undefined when the text is not. */
export function decodeBase64(text: string): Uint8Array | undefined {
  if (text.length % 4 || !/^[A-Za-z0-9+/]*={0,2}$/.test(text)) return undefined;
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  const bytes = new Uint8Array((text.length / 4) * 3 - padding);
  let bits = 0;
  let value = 0;
  let at = 0;
  for (let i = 0; i < text.length - padding; i++) {
    value = (value << 6) | BASE64.indexOf(text[i]);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes[at++] = (value >> bits) & 0xff;
    }
  }
  // The bits a padded group leaves over are zero in canonical base64.
  return value & ((1 << bits) - 1) ? undefined : bytes;
}

export function encodeBase64(bytes: Uint8Array): string {
  let text = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const left = bytes.length - i;
    const chunk = (bytes[i] << 16) | ((left > 1 ? bytes[i + 1] : 0) << 8) | (left > 2 ? bytes[i + 2] : 0);
    text += BASE64[(chunk >> 18) & 63] + BASE64[(chunk >> 12) & 63] + (left > 1 ? BASE64[(chunk >> 6) & 63] : '=') + (left > 2 ? BASE64[chunk & 63] : '=');
  }
  return text;
}

/** The SSH wire strings of a key blob, all of it; undefined when it is not a whole number of them. */
function wireStrings(blob: Uint8Array): Uint8Array[] | undefined {
  const strings: Uint8Array[] = [];
  for (let at = 0; at < blob.length; ) {
    if (at + 4 > blob.length) return undefined;
    const length = ((blob[at] << 24) | (blob[at + 1] << 16) | (blob[at + 2] << 8) | blob[at + 3]) >>> 0;
    if (at + 4 + length > blob.length) return undefined;
    strings.push(blob.subarray(at + 4, at + 4 + length));
    at += 4 + length;
  }
  return strings;
}

const text = (bytes: Uint8Array | undefined) => (bytes ? String.fromCharCode(...bytes) : '');

/** The bits of a positive mpint. */
function bitLength(mpint: Uint8Array): number {
  let i = 0;
  while (i < mpint.length && mpint[i] === 0) i++;
  return i === mpint.length ? 0 : (mpint.length - i) * 8 - (Math.clz32(mpint[i]) - 24);
}

/**
 * Why dropbear would never match the key, as a field error on `key`; undefined when it would:
 * base64 of an SSH public key blob whose own type is `type`, with the members of that type.
 */
export function keyError(type: string, key: string): FieldError | undefined {
  const blob = decodeBase64(key);
  if (!blob || !blob.length) return { field: 'key', code: 'invalid_format', message: 'key is not canonical base64' };
  const strings = wireStrings(blob);
  if (!strings || text(strings[0]) !== type) return { field: 'key', code: 'conflict', message: `key does not hold a ${type} key` };
  const members = type.startsWith('sk-') ? 4 : 3;
  const [, first, second] = strings;
  const shapeOk = type.includes('ed25519')
    ? strings.length === members - 1 && first.length === 32
    : type === 'ssh-rsa'
      ? strings.length === 3 && bitLength(first) <= 64
      : strings.length === members && text(first) === /nistp\d+/.exec(type)![0];
  if (!shapeOk) return { field: 'key', code: 'invalid_format', message: `key is not a well-formed ${type} key` };
  if (type === 'ssh-rsa' && bitLength(second) < MIN_RSA_BITS) {
    return { field: 'key', code: 'out_of_range', message: `an RSA key has at least ${MIN_RSA_BITS} bits; dropbear refuses a shorter one` };
  }
  return undefined;
}

/** Why dropbear would refuse the key for its options (svr_add_pubkey_options); undefined when it would not. */
export function optionsError(options: string): FieldError | undefined {
  const fail = (message: string): FieldError => ({ field: 'options', code: 'invalid_format', message: `options: ${message}; dropbear would refuse the key` });
  let rest = options;
  let command = false;
  while (rest) {
    const lower = rest.toLowerCase();
    const flag = FLAGS.find((name) => lower.startsWith(name));
    if (flag) rest = rest.slice(flag.length);
    else if (lower.startsWith('command="')) {
      if (command) return fail('command= is given twice');
      command = true;
      let end = 9;
      for (let escaped = false; end < rest.length && (escaped || rest[end] !== '"'); end++) escaped = !escaped && rest[end] === '\\';
      if (end >= rest.length) return fail('command= has no closing quote');
      rest = rest.slice(end + 1);
    } else if (lower.startsWith('permitopen="')) {
      const end = rest.indexOf('"', 12);
      if (end < 0 || !/^(\[[^\]]+\]|[^[][^]*):(\*|\d{1,10})$/.test(rest.slice(12, end))) return fail('permitopen= takes "host:port" or "host:*"');
      rest = rest.slice(end + 1);
    } else return fail(`${rest.split(/[,=]/)[0].slice(0, 32)} is not an option dropbear knows`);
    if (rest && rest[0] !== ',') return fail('options are separated by commas');
    rest = rest.slice(1);
  }
  return undefined;
}

/** The entry of a key: its id and fingerprint come from the SHA-256 of the blob. */
function entryOf(type: string, key: string, comment: string | undefined, options: string | undefined): KeyEntry {
  const digest = sha256(decodeBase64(key)!);
  return {
    id: hex(digest).slice(0, 16),
    type,
    key,
    ...(comment !== undefined ? { comment } : {}),
    ...(options !== undefined ? { options } : {}),
    fingerprint: `SHA256:${encodeBase64(digest).replace(/=+$/, '')}`,
  };
}

interface LineParts {
  options?: string;
  type: string;
  key: string;
  comment?: string;
}

/** A key line's parts as dropbear's checkpubkey_line splits it; undefined when it names no key type dropbear knows. */
function splitLine(line: string): LineParts | undefined {
  let options: string | undefined;
  let rest = line;
  if (!KEY_TYPES.some((type) => line.startsWith(type))) {
    let at = line.search(/[^ \t]/);
    const start = at;
    for (let quoted = false, escaped = false; at < line.length && (quoted || (line[at] !== ' ' && line[at] !== '\t')); at++) {
      escaped = !escaped && line[at] === '\\';
      if (!escaped && line[at] === '"') quoted = !quoted;
    }
    options = line.slice(start, at);
    rest = line.slice(at + 1);
  }
  const type = KEY_TYPES.find((candidate) => rest.startsWith(`${candidate} `));
  if (!type) return undefined;
  const [key, ...words] = rest.slice(type.length + 1).split(' ');
  return { options, type, key, comment: words.length ? words.join(' ') : undefined };
}

/** A line as dropbear's checkpubkey_line takes it. */
export function parseLine(raw: string): LineKind {
  const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
  if (/^[ \t]*$/.test(line)) return 'blank';
  if (/^[ \t]*#/.test(line)) return 'comment';
  if (line.includes('\r') || line.includes('\0') || utf8Bytes(line).length > MAX_LINE) return 'malformed';
  const parts = splitLine(line);
  if (!parts || keyError(parts.type, parts.key) || (parts.options !== undefined && optionsError(parts.options))) return 'malformed';
  return { entry: entryOf(parts.type, parts.key, parts.comment, parts.options) };
}

/**
 * The file's lines (without their LF), the id of the key each holds (undefined for other lines),
 * and the entries of the first line of each key, in file order.
 */
export function readKeys(file: string): { lines: string[]; ids: (string | undefined)[]; entries: KeyEntry[]; skipped: number } {
  const lines = file.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const entries: KeyEntry[] = [];
  let skipped = 0;
  const ids = lines.map((line) => {
    const kind = parseLine(line);
    if (typeof kind === 'string') {
      if (kind === 'malformed') skipped++;
      return undefined;
    }
    // dropbear takes the first line of a key; a later one is no entry of its own.
    if (entries.some((entry) => entry.id === kind.entry.id)) skipped++;
    else entries.push(kind.entry);
    return kind.entry.id;
  });
  return { lines, ids, entries, skipped };
}

/** The file text of `lines`, each ended by LF. */
export const fileText = (lines: string[]) => lines.map((line) => `${line}\n`).join('');

const given = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);

/**
 * The parts a body names: `type`, `key`, `comment` and `options` as given, or a whole line in `key`
 * (`[options ]<type> <base64>[ <comment>]`, as ssh-keygen writes it, one line end tolerated), whose
 * parts a member also given must repeat.
 */
function bodyParts(body: JsonObject): { parts: Partial<LineParts> & { key: string }; errors: FieldError[] } {
  const key = (body.key as string).replace(/\r?\n$/, '');
  const named = { type: given(body.type), key, comment: given(body.comment), options: typeof body.options === 'string' ? body.options : undefined };
  const line = /[ \t]/.test(key) ? splitLine(key) : named;
  if (!line) return { parts: named, errors: [{ field: 'key', code: 'invalid_format', message: 'key is neither a base64 blob nor a line `<type> <base64> [comment]`' }] };
  const errors: FieldError[] = (['type', 'comment', 'options'] as const)
    .filter((member) => named[member] !== undefined && line[member] !== undefined && named[member] !== line[member])
    .map((member) => ({ field: member, code: 'conflict', message: `${member} differs from the line in key` }));
  if (!line.type) errors.push({ field: 'type', code: 'required', message: 'type is required with a bare key blob' });
  return { parts: { ...line, comment: line.comment ?? named.comment, options: line.options ?? named.options }, errors };
}

/**
 * The entry a valid body asks for and its line, or the field errors dropbear's reading gives it.
 * `types`: the key types this router's dropbear accepts.
 */
export function requestedEntry(body: JsonObject, types: string[]): { entry: KeyEntry; line: string } | { errors: FieldError[] } {
  const { parts, errors } = bodyParts(body);
  if (errors.length) return { errors };
  const type = parts.type!;
  const { key, comment, options } = parts;
  if (!types.includes(type)) errors.push({ field: 'type', code: 'not_in_enum', message: `this router's dropbear accepts ${types.join(', ')}` });
  const problems = [keyError(type, key), options === undefined ? undefined : optionsError(options)];
  for (const problem of problems) if (problem) errors.push(problem);
  const line = `${options !== undefined ? `${options} ` : ''}${type} ${key}${comment !== undefined ? ` ${comment}` : ''}`;
  if (!errors.length && utf8Bytes(line).length > MAX_LINE) {
    errors.push({ field: comment !== undefined ? 'comment' : 'key', code: 'out_of_range', message: `the line is longer than the ${MAX_LINE} bytes dropbear reads` });
  }
  const read = errors.length ? undefined : parseLine(line);
  if (read !== undefined && (typeof read === 'string' || read.entry.options !== options)) {
    errors.push({ field: 'options', code: 'invalid_format', message: 'options: blanks only inside quotes; dropbear would read the line otherwise' });
  }
  return errors.length ? { errors } : { entry: entryOf(type, key, comment, options), line };
}

/** The key types whose host key the init script could generate: the build's families; stock ones when it has not run. */
export function acceptedTypes(hostKeys: string[]): string[] {
  const families = KEY_TYPES.map((type) => (type.includes('ed25519') ? 'ed25519' : type === 'ssh-rsa' ? 'rsa' : 'ecdsa'));
  const generated = ['rsa', 'ed25519', 'ecdsa'].filter((family) => hostKeys.includes(`dropbear_${family}_host_key`));
  const present = generated.length ? generated : ['rsa', 'ed25519'];
  return KEY_TYPES.filter((_, i) => present.includes(families[i]));
}
