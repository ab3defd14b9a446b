import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AddressPolicy, parseNetwork, type RefusalReason } from './address-policy.js';
import { checkEndpointUrl } from './endpoint-url.js';

const refused: Array<[string, RefusalReason]> = [
  ['127.0.0.1', 'loopback'],
  ['127.255.0.9', 'loopback'],
  ['::1', 'loopback'],
  ['0.0.0.0', 'unspecified'],
  ['0.1.2.3', 'unspecified'],
  ['::', 'unspecified'],
  ['10.0.0.5', 'private'],
  ['172.16.0.1', 'private'],
  ['172.31.255.255', 'private'],
  ['192.168.1.1', 'private'],
  ['fc00::1', 'private'],
  ['fd12:3456::1', 'private'],
  ['169.254.1.1', 'link-local'],
  ['fe80::1', 'link-local'],
  ['fe80::1%eth0', 'link-local'],
  ['169.254.169.254', 'metadata'],
  ['fd00:ec2::254', 'metadata'],
  ['100.100.100.200', 'metadata'],
  ['100.64.0.1', 'shared'],
  ['100.127.255.254', 'shared'],
  ['224.0.0.1', 'multicast'],
  ['239.255.255.250', 'multicast'],
  ['ff02::1', 'multicast'],
  ['240.0.0.1', 'reserved'],
  ['255.255.255.255', 'broadcast'],
  ['198.18.0.1', 'benchmarking'],
  ['198.19.255.255', 'benchmarking'],
  ['192.0.2.10', 'documentation'],
  ['198.51.100.7', 'documentation'],
  ['203.0.113.200', 'documentation'],
  ['2001:db8::1', 'documentation'],
  // IPv6 forms that reach an IPv4 host are judged by that host.
  ['::ffff:127.0.0.1', 'loopback'],
  ['::ffff:7f00:1', 'loopback'],
  ['::ffff:10.1.2.3', 'private'],
  ['::ffff:0:169.254.169.254', 'metadata'],
  ['64:ff9b::10.0.0.1', 'private'],
  ['64:ff9b::a9fe:a9fe', 'metadata'],
  ['2002:c0a8:0101::1', 'private'],
  ['::10.0.0.1', 'private'],
  ['2001::1', 'reserved'],
  ['4000::1', 'reserved'],
  ['not an ip', 'invalid'],
  ['', 'invalid'],
];

const allowed = ['8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '169.255.0.1', '2606:4700:4700::1111', '2a00:1450::1', '::ffff:8.8.8.8', '64:ff9b::808:808'];

describe('AddressPolicy', () => {
  const policy = new AddressPolicy();

  it('refuses each special-purpose address with its reason', () => {
    for (const [address, reason] of refused) assert.deepEqual(policy.check(address), { allowed: false, reason }, address);
  });

  it('allows public unicast addresses', () => {
    for (const address of allowed) assert.deepEqual(policy.check(address), { allowed: true }, address);
  });

  it('lets allowNetworks through: addresses and CIDR networks, both families', () => {
    const open = new AddressPolicy(['127.0.0.1', '10.1.0.0/16', '::1', 'fd00::/8']);
    for (const address of ['127.0.0.1', '10.1.2.3', '::1', 'fd00::5', '::ffff:127.0.0.1']) assert.deepEqual(open.check(address), { allowed: true }, address);
    for (const [address, reason] of [['127.0.0.2', 'loopback'], ['10.2.0.1', 'private'], ['fc00::1', 'private'], ['169.254.169.254', 'metadata']] as const) {
      assert.deepEqual(open.check(address), { allowed: false, reason }, address);
    }
  });

  it('rejects allowNetworks entries that are not addresses or networks', () => {
    assert.throws(() => new AddressPolicy(['localhost']), /allowNetworks: "localhost" is not an IP address or a CIDR network/);
    assert.throws(() => new AddressPolicy(['10.0.0.0/33']), /prefix length/);
    assert.equal(typeof parseNetwork('::/0'), 'object');
    assert.equal(typeof parseNetwork('1.2.3.4/8/9'), 'string');
  });
});

describe('checkEndpointUrl', () => {
  const policy = new AddressPolicy(['192.168.5.0/24']);

  it('accepts http(s) URLs with public or allowed hosts, and host names', () => {
    for (const url of ['https://example.com/hooks', 'http://8.8.8.8:8080/x?y=1', 'https://[2606:4700::1111]/', 'http://192.168.5.9/', 'http://localhost:9000/']) {
      assert.equal(checkEndpointUrl(url, policy), undefined, url);
    }
  });

  it('explains what is wrong', () => {
    const cases: Array<[string, RegExp]> = [
      ['ftp://example.com/', /http or https URL, not ftp/],
      ['example.com/hooks', /not an absolute URL/],
      ['https://user:pw@example.com/', /user name or password/],
      ['http://127.0.0.1:9000/', /points at 127\.0\.0\.1, a loopback address/],
      ['http://[::1]/', /points at ::1, a loopback address/],
      ['http://169.254.169.254/latest', /cloud metadata/],
      ['http://0x7f.1/', /127\.0\.0\.1, a loopback address/],
      ['http://10.0.0.1/', /private networks are refused \(webhooks\.outbound\.allowNetworks\)/],
      [`https://example.com/${'a'.repeat(2048)}`, /longer than 2048 characters/],
    ];
    for (const [url, message] of cases) assert.match(checkEndpointUrl(url, policy) ?? '', message, url);
  });
});
