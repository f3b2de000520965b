// The line parsers of the read-only views dhcp/leases (dnsmasq's lease file) and dhcp/leases6
// (odhcpd's state file): items, lines that hold none, and malformed lines (null: skipped and counted).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { countdownWriter } from '../../src/engine/view.js';
import leases, { parse as lease } from '../../src/resources/dhcp/leases.js';
import leases6 from '../../src/resources/dhcp/leases6.js';
import { parse as lease6 } from '../../src/resources/dhcp/leases6.js';

const NOW = 1_800_000_000;

test('leases: a line of dnsmasq\'s lease file is one lease, its id the address', () => {
  assert.equal(lease(`${NOW + 60} 52:54:00:aa:bb:01 192.168.1.100 laptop 01:52:54:00:aa:bb:01`), [{
    id: '192_168_1_100',
    ip: '192.168.1.100',
    mac: '52:54:00:aa:bb:01',
    hwaddr: '52:54:00:aa:bb:01',
    hostname: 'laptop',
    client_id: '01:52:54:00:aa:bb:01',
    duid: null,
    expires_at: NOW + 60,
  }]);
  const [infinite] = lease('0 52:54:00:aa:bb:02 10.0.0.2 * *')!;
  assert.equal([infinite.expires_at, infinite.hostname, infinite.client_id, infinite.duid], [null, null, null, null]);
  const [other] = lease(`${NOW} 06-aa:bb:cc 10.0.0.3 * *`)!;
  assert.equal([other.mac, other.hwaddr], [null, '06-aa:bb:cc']);
  assert.is(lease(`${NOW} 00- 10.0.0.4 * *`)![0].hwaddr, '00-');
});

test('leases: the read writes expires_in last from the clock, as JSON.stringify writes the lease holding it', () => {
  const written = (line: string, now: number) => {
    const [item] = lease(line)!;
    return countdownWriter(leases, now)(JSON.stringify(item), item.expires_at);
  };
  const line = `${NOW + 60} 52:54:00:aa:bb:01 192.168.1.100 laptop 01:52:54:00:aa:bb:01`;
  assert.is(written(line, NOW), JSON.stringify({ ...lease(line)![0], expires_in: 60 }));
  assert.is(JSON.parse(written(line, NOW + 61)).expires_in, 0, 'expired: 0, never negative');
  const infinite = JSON.parse(written('0 52:54:00:aa:bb:02 10.0.0.2 * *', NOW));
  assert.equal([infinite.expires_at, infinite.expires_in], [null, null]);
  assert.equal(Object.keys(infinite).slice(-2), ['expires_at', 'expires_in']);
  const [item6] = lease6(`# br-lan 0001abcd aabb01 laptop ${NOW} d8e 128 fd00::d8e/128`)!;
  assert.is(countdownWriter(leases6, NOW)(JSON.stringify(item6), undefined), JSON.stringify(item6), 'a view without a countdown is written as parsed');
});

test('leases: the DUID of an RFC 4361 client id (type ff, a 4-byte IAID, the DUID), plain hex; none in any other', () => {
  const duid = (clientId: string) => lease(`${NOW} 52:54:00:aa:bb:01 192.168.1.100 host ${clientId}`)![0].duid;
  assert.is(duid('ff:00:00:00:01:00:01:00:01:2e:5c:1a:2b:52:54:00:aa:bb:01'), '000100012e5c1a2b525400aabb01');
  assert.is(duid('ff:56:78:9a:bc:00:04'), '0004', 'the shortest DUID: two bytes');
  assert.is(duid(`ff:00:00:00:01:${Array.from({ length: 130 }, () => 'ab').join(':')}`), 'ab'.repeat(130), 'the longest: 130 bytes');
  for (const other of ['01:52:54:00:aa:bb:01', 'ff:00:00:00:01:00', `ff:00:00:00:01:${Array.from({ length: 131 }, () => 'ab').join(':')}`, 'ff:00:00:00:01:0g:01', 'ff', '*']) {
    assert.is(duid(other), null, other);
  }
  assert.is(lease('duid 00:01:00:01:2e:5c:1a:2b:52:54:00:aa:bb:01')!.length, 0, 'the duid line is the server\'s own DUID, no lease\'s');
});

test('leases: a duid line and a DHCPv6 lease hold no IPv4 lease; short or garbled lines are malformed', () => {
  assert.equal(lease('duid 00:01:00:01:2e:5c:1a:2b:52:54:00:aa:bb:01'), []);
  assert.equal(lease(`${NOW} 52:54:00:aa:bb:01 fd00::5 host 00:01`), []);
  assert.equal(lease(`soon 52:54:00:aa:bb:01 fd00::5 host 00:01`), [], 'an IPv6 line whatever its expiry');
  assert.is(lease(`${NOW} 52:54:00:aa:bb:01 10.0.0.9 laptop * more`)![0].ip, '10.0.0.9', 'fields past the fifth are ignored');
  assert.is(lease(`${NOW} 52:54:00:aa:bb:01 10.0.0.9  *`)![0].hostname, '', 'an empty field is a field');
  for (const line of [
    'garbage',
    `${NOW} 52:54:00:aa:bb:01 192.168.1.100 laptop`,
    `soon 52:54:00:aa:bb:01 192.168.1.100 laptop *`,
    `-1 52:54:00:aa:bb:01 192.168.1.100 laptop *`,
    `1.5 52:54:00:aa:bb:01 192.168.1.100 laptop *`,
    `099 52:54:00:aa:bb:01 192.168.1.100 laptop *`,
    `99999999999999999999 52:54:00:aa:bb:01 192.168.1.100 laptop *`,
    `${NOW} 52:54:00:aa:bb:01 192.168.1.010 laptop *`,
    `${NOW} 52:54:00:aa:bb:01 192.168.1.1.1 laptop *`,
    `${NOW} 52:54:00:AA:bb:01 192.168.1.1 laptop *`,
    `${NOW} 52:54:00:aa:bb:01 192.168.1.256 laptop *`,
    `${NOW} 52:54:00:aa:bb:01 192.168.01 laptop *`,
    `${NOW} 52-54-00 192.168.1.1 laptop *`,
    `${NOW}  52:54:00:aa:bb:01 192.168.1.1 laptop *`,
  ]) {
    assert.is(lease(line), null, line);
  }
});

test('leases6: one item per address of an IA; ids from DUID, IAID and address', () => {
  assert.equal(lease6(`# br-lan 0001abcd aabb01 laptop ${NOW} d8e 128 fd4c:7e19:a3b2::d8e/128 fd00::d8e/128`), [
    { id: '0001abcd_aabb01_fd4c_7e19_a3b2__d8e_128', interface: 'br-lan', duid: '0001abcd', iaid: 'aabb01', hostname: 'laptop', ia_type: 'IA_NA', ip: 'fd4c:7e19:a3b2::d8e', prefix_length: null, host_id: 'd8e', expires_at: NOW },
    { id: '0001abcd_aabb01_fd00__d8e_128', interface: 'br-lan', duid: '0001abcd', iaid: 'aabb01', hostname: 'laptop', ia_type: 'IA_NA', ip: 'fd00::d8e', prefix_length: null, host_id: 'd8e', expires_at: NOW },
  ]);
  const [prefix] = lease6('# br-lan 0001abce 2 - -1 3 60 fd00:0:0:30::/60')!;
  assert.equal([prefix.ia_type, prefix.ip, prefix.prefix_length, prefix.hostname, prefix.expires_at], ['IA_PD', 'fd00:0:0:30::', 60, null, null]);
  assert.is(lease6('# br-lan 0001 1 broken\\x20my\\x20host 0 1 128 fd00::1/128')![0].hostname, 'my\\x20host');
  assert.equal(lease6('# br-lan 0001 1 - 0 1 128'), [], 'an IA without addresses gives none');
});

test('leases6: hosts lines and DHCPv4 leases hold none; garbled lease lines are malformed', () => {
  assert.equal(lease6('fd00::1\tlaptop\tlaptop'), []);
  assert.equal(lease6(''), []);
  assert.equal(lease6('# br-lan 5254aabbcc01 ipv4 printer 1900000000 10 32 192.168.1.9/32'), []);
  for (const line of [
    '# short',
    '# br-lan zz 1 - 0 1 128 fd00::1/128',
    '# br-lan 0001 1 - soon 1 128 fd00::1/128',
    '# br-lan 0001 1 - 0 1 wide fd00::1/128',
    '# br-lan 0001 1 - 0 1 128 fd00::1',
    '# br-lan 0001 1 - 0 1 128 10.0.0.1/32',
  ]) {
    assert.is(lease6(line), null, line);
  }
});

test.run();
