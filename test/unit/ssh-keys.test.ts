// The authorized-keys parser and validator against dropbear 2024.86's reading of a line
// (checkpubkey_line, svr_add_pubkey_options), with keys made as ssh-keygen makes them.
import { randomBytes } from 'node:crypto';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { acceptedTypes, decodeBase64, encodeBase64, fileText, parseLine, readKeys, requestedEntry } from '../../src/handlers/ssh-keys.js';
import { KEY_TYPES } from '../../src/openapi/authorized-keys.js';
import { blobOf, fingerprintOf, idOf, sshKey } from '../support/ssh-keys.js';

const ED = sshKey('ssh-ed25519');
const RSA = sshKey('ssh-rsa', 1024);
const entryOf = (line: string) => {
  const kind = parseLine(line);
  return typeof kind === 'string' ? kind : kind.entry;
};

test('base64 as ssh-keygen writes it: canonical only', () => {
  for (let length = 0; length < 40; length++) {
    const data = randomBytes(length);
    const text = data.toString('base64');
    assert.is(encodeBase64(new Uint8Array(data)), text);
    assert.equal(Buffer.from(decodeBase64(text)!), data);
  }
  for (const text of ['AB==', 'AAB=', 'AAA', 'AA=A', 'A===', 'AA AA', 'AA-_']) assert.is(decodeBase64(text), undefined, text);
});

test('a key line: type, key and comment verbatim; the id and fingerprint from the SHA-256 of the blob', () => {
  assert.equal(entryOf(`ssh-ed25519 ${ED} alice@laptop  two  spaces`), {
    id: idOf(ED), type: 'ssh-ed25519', key: ED, comment: 'alice@laptop  two  spaces', fingerprint: fingerprintOf(ED),
  });
  assert.equal(entryOf(`ssh-rsa ${RSA}`), { id: idOf(RSA), type: 'ssh-rsa', key: RSA, fingerprint: fingerprintOf(RSA) });
  assert.equal(entryOf(`ssh-ed25519 ${ED}\r`), { id: idOf(ED), type: 'ssh-ed25519', key: ED, fingerprint: fingerprintOf(ED) }, 'a CRLF line');
  for (const type of KEY_TYPES.filter((type) => type !== 'ssh-rsa')) {
    const key = sshKey(type);
    assert.equal(entryOf(`${type} ${key} x`), { id: idOf(key), type, key, comment: 'x', fingerprint: fingerprintOf(key) }, type);
  }
});

test('options: one token right before the type, blanks only inside quotes, names dropbear knows in any case', () => {
  const options = 'no-pty,Command="echo \\"hi\\" there",permitopen="[fd00::1]:22",permitopen="host:*",restrict,';
  assert.equal(entryOf(`  ${options} ssh-ed25519 ${ED} c`), { id: idOf(ED), type: 'ssh-ed25519', key: ED, comment: 'c', options, fingerprint: fingerprintOf(ED) });
  for (const bad of [
    `no-pty  ssh-ed25519 ${ED}`, // a second blank: the type must follow the options' one
    `command="echo \\"a b\\"" ssh-ed25519 ${ED}`, // finding the token's end, dropbear takes an escaped quote for a quote
    `from="10.0.0.1" ssh-ed25519 ${ED}`, // an option dropbear refuses the key for
    `command="a",command="b" ssh-ed25519 ${ED}`,
    `command="open ssh-ed25519 ${ED}`,
    `permitopen="host" ssh-ed25519 ${ED}`,
    `permitopen="[]:22" ssh-ed25519 ${ED}`,
    `no-pty;restrict ssh-ed25519 ${ED}`,
    `no-ptyx ssh-ed25519 ${ED}`,
  ]) {
    assert.is(entryOf(bad), 'malformed', bad);
  }
});

test('lines dropbear never matches a key with are malformed; comments and blank lines hold none by design', () => {
  assert.is(entryOf(''), 'blank');
  assert.is(entryOf(' \t'), 'blank');
  assert.is(entryOf('  # ssh-ed25519 key of old'), 'comment');
  for (const bad of [
    ` ssh-ed25519 ${ED}`, // leading blanks make the type the options
    `ssh-ed25519\t${ED}`,
    `ssh-ed25519  ${ED}`,
    `ssh-rsa ${ED}`, // the blob's own type differs
    `ssh-ed25519 ${ED.slice(0, -2)}`,
    `ssh-ed25519 ${ED}\rssh-ed25519 ${ED}`,
    `ssh-dss ${blobOf('ssh-dss', 'p', 'q', 'g', 'y')}`,
    `ssh-rsa ${sshKey('ssh-rsa', 768)}`, // shorter than MIN_RSA_KEYLEN
    `ssh-ed25519 ${blobOf('ssh-ed25519', Buffer.alloc(31))}`,
    `ecdsa-sha2-nistp384 ${blobOf('ecdsa-sha2-nistp384', 'nistp256', Buffer.alloc(65))}`,
    `ssh-ed25519 ${ED} ${'x'.repeat(4200)}`,
  ]) {
    assert.is(entryOf(bad), 'malformed', bad.slice(0, 60));
  }
});

test('readKeys: every line kept, the first line of each key an entry, the others counted as skipped', () => {
  const file = `# keys\n\nssh-ed25519 ${ED} a\nnonsense\nno-pty ssh-ed25519 ${ED} b\nssh-rsa ${RSA} c`;
  const { lines, ids, entries, skipped } = readKeys(file);
  assert.equal(lines, file.split('\n'));
  assert.equal(ids, [undefined, undefined, idOf(ED), undefined, idOf(ED), idOf(RSA)]);
  assert.equal(entries.map((entry) => entry.comment), ['a', 'c']);
  assert.is(skipped, 2);
  assert.is(fileText(lines), `${file}\n`);
  assert.equal(readKeys('').lines, []);
  assert.equal(readKeys('\n').lines, ['']);
});

test('requestedEntry: the line a body makes, or the field errors of what dropbear would not accept', () => {
  const types = acceptedTypes([]);
  assert.equal(requestedEntry({ type: 'ssh-ed25519', key: ED, comment: 'me', options: 'no-pty' }, types), {
    entry: { id: idOf(ED), type: 'ssh-ed25519', key: ED, comment: 'me', options: 'no-pty', fingerprint: fingerprintOf(ED) },
    line: `no-pty ssh-ed25519 ${ED} me`,
  });
  assert.equal(requestedEntry({ type: 'ssh-rsa', key: RSA, comment: '', options: null }, types), {
    entry: { id: idOf(RSA), type: 'ssh-rsa', key: RSA, fingerprint: fingerprintOf(RSA) },
    line: `ssh-rsa ${RSA}`,
  });
  const errors = (body: Record<string, unknown>) => {
    const result = requestedEntry(body as never, types);
    return 'errors' in result ? result.errors.map(({ field, code }) => `${field}:${code}`) : [];
  };
  assert.equal(errors({ type: 'ssh-rsa', key: ED }), ['key:conflict']);
  assert.equal(errors({ type: 'ecdsa-sha2-nistp256', key: sshKey('ecdsa-sha2-nistp256'), options: 'agent' }), ['type:not_in_enum', 'options:invalid_format']);
  assert.equal(errors({ type: 'ssh-ed25519', key: 'AB==' }), ['key:invalid_format']);
  assert.equal(errors({ type: 'ssh-rsa', key: sshKey('ssh-rsa', 768) }), ['key:out_of_range']);
  assert.equal(errors({ type: 'ssh-ed25519', key: ED, options: 'command="a b" no-pty' }), ['options:invalid_format']);
  assert.equal(errors({ type: 'ssh-ed25519', key: ED, comment: 'é'.repeat(2100) }), ['comment:out_of_range']);
});

test('requestedEntry: the whole line in key, as ssh-keygen writes it, stands for type, comment and options', () => {
  const types = acceptedTypes([]);
  const entry = { id: idOf(ED), type: 'ssh-ed25519', key: ED, comment: 'alice@laptop  two', fingerprint: fingerprintOf(ED) };
  assert.equal(requestedEntry({ key: `ssh-ed25519 ${ED} alice@laptop  two\r\n` }, types), { entry, line: `ssh-ed25519 ${ED} alice@laptop  two` });
  assert.equal(requestedEntry({ key: `ssh-ed25519 ${ED} alice@laptop  two`, type: 'ssh-ed25519', comment: 'alice@laptop  two' }, types), { entry, line: `ssh-ed25519 ${ED} alice@laptop  two` });
  assert.equal(requestedEntry({ key: `no-pty ssh-rsa ${RSA}`, comment: 'bob' }, types), {
    entry: { id: idOf(RSA), type: 'ssh-rsa', key: RSA, comment: 'bob', options: 'no-pty', fingerprint: fingerprintOf(RSA) },
    line: `no-pty ssh-rsa ${RSA} bob`,
  });
  const errors = (body: Record<string, unknown>) => {
    const result = requestedEntry(body as never, types);
    return 'errors' in result ? result.errors.map(({ field, code }) => `${field}:${code}`) : [];
  };
  assert.equal(errors({ key: ED }), ['type:required']);
  assert.equal(errors({ key: `ssh-dss ${ED}` }), ['key:invalid_format']);
  assert.equal(errors({ key: `ssh-ed25519\t${ED}` }), ['key:invalid_format']);
  assert.equal(errors({ key: `ssh-ed25519  ${ED}` }), ['key:invalid_format']);
  assert.equal(errors({ key: `ssh-rsa ${ED} x` }), ['key:conflict']);
  assert.equal(errors({ key: `ssh-ed25519 ${ED} a`, type: 'ssh-rsa', comment: 'b', options: 'no-pty' }), ['type:conflict', 'comment:conflict']);
  assert.equal(errors({ key: `restrict ssh-ed25519 ${ED}`, options: 'no-pty' }), ['options:conflict']);
  assert.equal(errors({ key: `agent ssh-ed25519 ${ED}` }), ['options:invalid_format']);
  assert.equal(errors({ key: `ecdsa-sha2-nistp256 ${sshKey('ecdsa-sha2-nistp256')}` }), ['type:not_in_enum']);
});

test('acceptedTypes: the families whose host key the init script could generate; the stock build\'s before it ran', () => {
  const stock = ['ssh-ed25519', 'sk-ssh-ed25519@openssh.com', 'ssh-rsa'];
  assert.equal(acceptedTypes([]), stock);
  assert.equal(acceptedTypes(['authorized_keys', 'dropbear_rsa_host_key', 'dropbear_ed25519_host_key']), stock);
  assert.equal(acceptedTypes(['dropbear_ed25519_host_key', 'dropbear_ecdsa_host_key', 'dropbear_rsa_host_key']), KEY_TYPES);
  assert.equal(acceptedTypes(['dropbear_ed25519_host_key']), ['ssh-ed25519', 'sk-ssh-ed25519@openssh.com']);
});

test.run();
