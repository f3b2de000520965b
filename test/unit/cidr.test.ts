import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { addressInList, isLoopback, parseAddress, parseCidr } from '../../src/auth/cidr.js';

function v6(...groups: number[]): number[] {
  return groups.flatMap((group) => [group >> 8, group & 0xff]);
}

test('IPv4 addresses', () => {
  assert.equal(parseAddress('192.168.1.1'), { family: 4, bytes: [192, 168, 1, 1] });
  assert.equal(parseAddress('0.0.0.0'), { family: 4, bytes: [0, 0, 0, 0] });
  assert.equal(parseAddress('255.255.255.255'), { family: 4, bytes: [255, 255, 255, 255] });
  assert.equal(parseAddress('10.0.0.100'), { family: 4, bytes: [10, 0, 0, 100] });
});

test('malformed IPv4 addresses are rejected', () => {
  for (const text of [
    '',
    '1.2.3',
    '1.2.3.4.5',
    '256.1.1.1',
    '1.2.3.256',
    '1.2.3.999',
    '01.2.3.4',
    '1.2.3.04',
    '1.2.3.00',
    '0x1.2.3.4',
    '1.2.3.-4',
    '+1.2.3.4',
    ' 1.2.3.4',
    '1.2.3.4 ',
    '1.2.3.4\n',
    'a1.2.3.4',
    '1.2.3.4a',
    '1..3.4',
    '1.2.3.',
    '.1.2.3',
    '1.2.3.4/24',
    '１.2.3.4',
    '10',
  ]) {
    assert.is(parseAddress(text), undefined, JSON.stringify(text));
  }
});

test('IPv6 addresses in every textual form', () => {
  const vectors: [string, number[]][] = [
    ['::', v6(0, 0, 0, 0, 0, 0, 0, 0)],
    ['::1', v6(0, 0, 0, 0, 0, 0, 0, 1)],
    ['1::', v6(1, 0, 0, 0, 0, 0, 0, 0)],
    ['2001:db8::1', v6(0x2001, 0xdb8, 0, 0, 0, 0, 0, 1)],
    ['2001:0db8:0000:0000:0000:0000:0000:0001', v6(0x2001, 0xdb8, 0, 0, 0, 0, 0, 1)],
    ['2001:DB8::ABCD', v6(0x2001, 0xdb8, 0, 0, 0, 0, 0, 0xabcd)],
    ['fe80::1:2', v6(0xfe80, 0, 0, 0, 0, 0, 1, 2)],
    ['1:2:3:4:5:6:7:8', v6(1, 2, 3, 4, 5, 6, 7, 8)],
    ['1:2:3:4:5:6:7::', v6(1, 2, 3, 4, 5, 6, 7, 0)],
    ['::2:3:4:5:6:7:8', v6(0, 2, 3, 4, 5, 6, 7, 8)],
    ['1:2:3::6:7:8', v6(1, 2, 3, 0, 0, 6, 7, 8)],
    ['1::8', v6(1, 0, 0, 0, 0, 0, 0, 8)],
    ['::ffff:1.2.3.4', v6(0, 0, 0, 0, 0, 0xffff, 0x0102, 0x0304)],
    ['::FFFF:192.168.1.1', v6(0, 0, 0, 0, 0, 0xffff, 0xc0a8, 0x0101)],
    ['::1.2.3.4', v6(0, 0, 0, 0, 0, 0, 0x0102, 0x0304)],
    ['64:ff9b::192.0.2.33', v6(0x64, 0xff9b, 0, 0, 0, 0, 0xc000, 0x0221)],
    ['1:2:3:4:5:6:1.2.3.4', v6(1, 2, 3, 4, 5, 6, 0x0102, 0x0304)],
    ['1:2:3:4:5::1.2.3.4', v6(1, 2, 3, 4, 5, 0, 0x0102, 0x0304)],
    ['::ffff:0.0.0.0', v6(0, 0, 0, 0, 0, 0xffff, 0, 0)],
  ];
  for (const [text, bytes] of vectors) assert.equal(parseAddress(text), { family: 6, bytes }, text);
});

test('malformed IPv6 addresses are rejected', () => {
  for (const text of [
    ':',
    ':::',
    '::::',
    '1:::2',
    ':1::',
    '::1:',
    ':1:2:3:4:5:6:7:8',
    '1:2:3:4:5:6:7:8:',
    '1::2::3',
    '1:2:3:4:5:6:7',
    '1:2:3:4:5:6:7:8:9',
    '1::2:3:4:5:6:7:8',
    '1:2:3:4:5:6:7:8::',
    '12345::',
    '::12345',
    'g::',
    '::g',
    '1:2:3:4:5:1.2.3.4',
    '1:2:3:4:5:6:7:1.2.3.4',
    '::1.2.3.4:5',
    '1.2.3.4::',
    '::ffff:1.2.3',
    '::ffff:1.2.3.256',
    '::ffff:01.2.3.4',
    '::ffff:1.2.3.4.5',
    'fe80::1%eth0',
    '[::1]',
    ' ::1',
    '::1 ',
    '::-1',
    '::+1',
    '::0x1',
  ]) {
    assert.is(parseAddress(text), undefined, JSON.stringify(text));
  }
});

test('CIDRs: address and prefix, bare addresses as full-length prefixes', () => {
  assert.equal(parseCidr('10.0.0.0/8'), { family: 4, bytes: [10, 0, 0, 0], prefix: 8 });
  assert.equal(parseCidr('0.0.0.0/0'), { family: 4, bytes: [0, 0, 0, 0], prefix: 0 });
  assert.equal(parseCidr('192.0.2.7'), { family: 4, bytes: [192, 0, 2, 7], prefix: 32 });
  assert.equal(parseCidr('192.0.2.7/32'), { family: 4, bytes: [192, 0, 2, 7], prefix: 32 });
  assert.equal(parseCidr('::/0'), { family: 6, bytes: v6(0, 0, 0, 0, 0, 0, 0, 0), prefix: 0 });
  assert.equal(parseCidr('2001:db8::/32'), { family: 6, bytes: v6(0x2001, 0xdb8, 0, 0, 0, 0, 0, 0), prefix: 32 });
  assert.equal(parseCidr('::1'), { family: 6, bytes: v6(0, 0, 0, 0, 0, 0, 0, 1), prefix: 128 });
  assert.equal(parseCidr('::ffff:10.0.0.0/104'), { family: 6, bytes: v6(0, 0, 0, 0, 0, 0xffff, 0x0a00, 0), prefix: 104 });
});

test('CIDRs: host bits are accepted and cleared', () => {
  assert.equal(parseCidr('192.168.1.5/24'), { family: 4, bytes: [192, 168, 1, 0], prefix: 24 });
  assert.equal(parseCidr('192.168.1.255/25'), { family: 4, bytes: [192, 168, 1, 128], prefix: 25 });
  assert.equal(parseCidr('10.255.255.255/0'), { family: 4, bytes: [0, 0, 0, 0], prefix: 0 });
  assert.equal(parseCidr('2001:db8::1/64'), { family: 6, bytes: v6(0x2001, 0xdb8, 0, 0, 0, 0, 0, 0), prefix: 64 });
  assert.equal(parseCidr('2001:db8:ffff::/33'), { family: 6, bytes: v6(0x2001, 0xdb8, 0x8000, 0, 0, 0, 0, 0), prefix: 33 });
});

test('malformed CIDRs are rejected', () => {
  for (const text of [
    '',
    '/24',
    '10.0.0.0/',
    '10.0.0.0/33',
    '10.0.0.0/-1',
    '10.0.0.0/+8',
    '10.0.0.0/08',
    '10.0.0.0/8/8',
    '10.0.0.0/8 ',
    '10.0.0.0/ 8',
    '10.0.0.0/255.0.0.0',
    '10.0.0/8',
    '::/129',
    '::/1000',
    '2001:db8::/0x20',
    'fe80::/10%eth0',
    'x10.0.0.0/8',
    '10.0.0.0 /8',
  ]) {
    assert.is(parseCidr(text), undefined, JSON.stringify(text));
  }
});

test('addressInList matches IPv4 callers against IPv4 entries', () => {
  const list = ['192.168.1.0/24', '10.0.0.1'];
  assert.ok(addressInList('192.168.1.1', list));
  assert.ok(addressInList('192.168.1.255', list));
  assert.ok(addressInList('10.0.0.1', list));
  assert.not.ok(addressInList('10.0.0.2', list));
  assert.not.ok(addressInList('192.168.2.1', list));
  assert.ok(addressInList('203.0.113.9', ['0.0.0.0/0']));
  assert.ok(addressInList('172.16.5.4', ['172.16.0.0/12']));
  assert.not.ok(addressInList('172.32.0.1', ['172.16.0.0/12']));
  assert.ok(addressInList('192.168.1.77', ['192.168.1.5/24']));
});

test('addressInList matches IPv6 callers against IPv6 entries', () => {
  assert.ok(addressInList('2001:db8::1', ['2001:db8::/32']));
  assert.ok(addressInList('2001:db8:ffff:1::9', ['2001:db8::/32']));
  assert.not.ok(addressInList('2001:db9::1', ['2001:db8::/32']));
  assert.ok(addressInList('2001:db8::8000:0:0:1', ['2001:db8:0:0:8000::/65']));
  assert.not.ok(addressInList('2001:db8::1', ['2001:db8:0:0:8000::/65']));
  assert.ok(addressInList('fe80::1', ['::/0']));
  assert.ok(addressInList('::1', ['::1/128']));
});

test('the families never cross', () => {
  assert.not.ok(addressInList('2001:db8::1', ['0.0.0.0/0']));
  assert.not.ok(addressInList('::1', ['0.0.0.0/0']));
  assert.not.ok(addressInList('192.168.1.1', ['::/0']));
  assert.not.ok(addressInList('0.0.0.0', ['::/0']));
  assert.not.ok(addressInList('::102:304', ['1.2.3.4/32']));
});

test('an IPv4-mapped caller is matched against IPv4 entries only', () => {
  assert.ok(addressInList('::ffff:192.168.1.10', ['192.168.1.0/24']));
  assert.ok(addressInList('::ffff:c0a8:10a', ['192.168.1.0/24']));
  assert.ok(addressInList('::ffff:192.168.1.10', ['0.0.0.0/0']));
  assert.not.ok(addressInList('::ffff:192.168.1.10', ['::/0']));
  assert.not.ok(addressInList('::ffff:192.168.1.10', ['::ffff:0:0/96']));
  assert.not.ok(addressInList('::ffff:192.168.2.10', ['192.168.1.0/24']));
});

test('mixed lists admit each family through its own entries', () => {
  const list = ['10.0.0.0/8', '2001:db8::/32'];
  assert.ok(addressInList('10.1.2.3', list));
  assert.ok(addressInList('2001:db8::5', list));
  assert.ok(addressInList('::ffff:10.9.9.9', list));
  assert.not.ok(addressInList('11.0.0.1', list));
  assert.not.ok(addressInList('2001:db9::5', list));
});

test('unparseable callers and entries match nothing', () => {
  assert.not.ok(addressInList('', ['0.0.0.0/0', '::/0']));
  assert.not.ok(addressInList('localhost', ['0.0.0.0/0', '::/0']));
  assert.not.ok(addressInList('fe80::1%br-lan', ['::/0']));
  assert.not.ok(addressInList('10.0.0.1', ['10.0.0.0/33', 'garbage']));
  assert.not.ok(addressInList('10.0.0.1', []));
});

test('isLoopback', () => {
  for (const text of ['127.0.0.1', '127.0.0.0', '127.255.255.255', '127.1.2.3', '::1', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.1', '::ffff:127.9.8.7', '::ffff:7f00:1']) {
    assert.ok(isLoopback(text), text);
  }
  for (const text of ['128.0.0.1', '126.255.255.255', '10.0.0.1', '::', '::2', '::127.0.0.1', '::1:0', 'fe80::1', '::ffff:128.0.0.1', '0.0.0.0', '', 'localhost', '127.0.0.1 ']) {
    assert.not.ok(isLoopback(text), text);
  }
});

test.run();
