import { BlockList, isIP, isIPv4 } from 'node:net';

/** Why an address is refused: one word a log line and an error message can carry. */
export type RefusalReason =
  | 'loopback'
  | 'unspecified'
  | 'private'
  | 'link-local'
  | 'metadata'
  | 'shared'
  | 'multicast'
  | 'broadcast'
  | 'reserved'
  | 'benchmarking'
  | 'documentation'
  | 'invalid';

/** The verdict on one address. */
export type AddressVerdict = { allowed: true } | { allowed: false; reason: RefusalReason };

// Order matters: the first list that holds an address names the reason, so the narrow ranges
// (cloud metadata inside link-local and shared space, broadcast inside reserved) come first.
const RANGES: ReadonlyArray<[RefusalReason, string[]]> = [
  // Cloud instance metadata services hand out credentials: AWS/GCP/Azure, AWS over IPv6, Alibaba.
  ['metadata', ['169.254.169.254/32', 'fd00:ec2::254/128', '100.100.100.200/32']],
  ['broadcast', ['255.255.255.255/32']],
  ['loopback', ['127.0.0.0/8', '::1/128']],
  ['unspecified', ['0.0.0.0/8', '::/128']],
  ['private', ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7', 'fec0::/10', '64:ff9b:1::/48']],
  ['link-local', ['169.254.0.0/16', 'fe80::/10']],
  // Carrier-grade NAT: addresses inside a provider's network, not on the internet.
  ['shared', ['100.64.0.0/10']],
  ['multicast', ['224.0.0.0/4', 'ff00::/8']],
  ['benchmarking', ['198.18.0.0/15', '2001:2::/48']],
  ['documentation', ['192.0.2.0/24', '198.51.100.0/24', '203.0.113.0/24', '2001:db8::/32', '3fff::/20']],
  // Protocol assignments, 6to4 relays, future use; Teredo hides its IPv4 address, so it is refused whole.
  ['reserved', ['192.0.0.0/24', '192.88.99.0/24', '240.0.0.0/4', '100::/64', '2001::/32', '2001:10::/28', '2001:20::/28']],
];

const RULES: ReadonlyArray<[RefusalReason, BlockList]> = RANGES.map(([reason, cidrs]) => [reason, blockList(cidrs)]);

function blockList(cidrs: readonly string[]): BlockList {
  const list = new BlockList();
  for (const cidr of cidrs) {
    const network = parseNetwork(cidr);
    if (typeof network === 'string') throw new Error(network);
    list.addSubnet(network.address, network.prefix, network.family);
  }
  return list;
}

/** Parses `10.0.0.0/8`, `::1` or `fd00::/8` (a bare address is a network of one); an error text when it is neither. */
export function parseNetwork(entry: string): { address: string; prefix: number; family: 'ipv4' | 'ipv6' } | string {
  const [address = '', prefixText, extra] = entry.trim().split('/');
  const version = isIP(address);
  if (!version || extra !== undefined) return `"${entry}" is not an IP address or a CIDR network (e.g. 10.0.0.0/8, ::1)`;
  const max = version === 4 ? 32 : 128;
  const prefix = prefixText === undefined ? max : /^\d{1,3}$/.test(prefixText) ? Number(prefixText) : NaN;
  if (!(prefix >= 0 && prefix <= max)) return `"${entry}" has a prefix length that is not 0 to ${max}`;
  return { address, prefix, family: version === 4 ? 'ipv4' : 'ipv6' };
}

/** The 16 bytes of an IPv6 address (one `isIP` accepts; a dotted IPv4 tail is allowed). */
export function ipv6Bytes(address: string): Buffer {
  let text = address;
  const bytes = Buffer.alloc(16);
  let tail: number[] = [];
  // A dotted IPv4 tail (::ffff:10.0.0.1) fills the last four bytes.
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    tail = dotted[1]!.split('.').map(Number);
    text = text.slice(0, -dotted[1]!.length) + '0:0';
  }
  const [head = '', rest] = text.split('::');
  const groups = (s: string) => (s ? s.split(':').map((g) => parseInt(g, 16)) : []);
  const left = groups(head);
  const right = rest === undefined ? [] : groups(rest);
  const all = [...left, ...new Array(8 - left.length - right.length).fill(0), ...right];
  all.forEach((g, i) => bytes.writeUInt16BE(g, i * 2));
  if (tail.length) bytes.set(tail, 12);
  return bytes;
}

/**
 * The IPv4 address an IPv6 address carries, when it is one of the forms that reach an IPv4 host:
 * IPv4-mapped (::ffff:a.b.c.d), IPv4-translated (::ffff:0:a.b.c.d), IPv4-compatible (::a.b.c.d),
 * NAT64 (64:ff9b::a.b.c.d) and 6to4 (2002:aabb:ccdd::). Those are judged by the IPv4 address.
 */
export function embeddedIPv4(address: string): string | undefined {
  const b = ipv6Bytes(address);
  const zero = (from: number, to: number) => b.subarray(from, to).every((x) => x === 0);
  const v4 = (at: number) => [...b.subarray(at, at + 4)].join('.');
  if (zero(0, 10) && b[10] === 0xff && b[11] === 0xff) return v4(12);
  if (zero(0, 8) && b[8] === 0xff && b[9] === 0xff && zero(10, 12)) return v4(12);
  if (zero(0, 12) && !zero(12, 14)) return v4(12); // ::a.b.c.d, but not :: and ::1
  if (b.readUInt32BE(0) === 0x0064ff9b && zero(4, 12)) return v4(12);
  if (b.readUInt16BE(0) === 0x2002) return v4(2);
  return undefined;
}

/**
 * Which addresses webhook deliveries may connect to: public unicast only, so an endpoint URL
 * cannot make this server reach its own machine, its private network or a cloud metadata service.
 * Networks in `allowNetworks` (for local development and tests) are let through.
 */
export class AddressPolicy {
  readonly #allow = new BlockList();

  /** Throws when an `allowNetworks` entry is not an IP address or CIDR network. */
  constructor(allowNetworks: readonly string[] = []) {
    for (const entry of allowNetworks) {
      const network = parseNetwork(entry);
      if (typeof network === 'string') throw new Error(`webhooks.outbound.allowNetworks: ${network}`);
      this.#allow.addSubnet(network.address, network.prefix, network.family);
    }
  }

  /** Judges an IP address (IPv4, or IPv6 with or without a zone); anything else is refused as invalid. */
  check(address: string): AddressVerdict {
    const ip = address.replace(/%.*$/, '');
    const version = isIP(ip);
    if (!version) return { allowed: false, reason: 'invalid' };
    const family = version === 4 ? 'ipv4' : 'ipv6';
    if (this.#allow.check(ip, family)) return { allowed: true };
    if (version === 6) {
      const v4 = embeddedIPv4(ip);
      if (v4) return this.check(v4);
    }
    for (const [reason, list] of RULES) if (list.check(ip, family)) return { allowed: false, reason };
    // Outside 2000::/3 nothing is assigned as global unicast.
    if (version === 6 && (ipv6Bytes(ip)[0]! & 0xe0) !== 0x20) return { allowed: false, reason: 'reserved' };
    return { allowed: true };
  }
}

const ADJECTIVES: Partial<Record<RefusalReason, string>> = { metadata: 'cloud metadata', shared: 'carrier-grade NAT (shared)' };

/** The words an error message uses for a refusal reason: "a private address", or "private networks" for the plural. */
export function describeReason(reason: RefusalReason, plural = false): string {
  if (reason === 'invalid') return plural ? 'invalid addresses' : 'not a valid IP address';
  if (plural) return reason === 'private' ? 'private networks' : `${ADJECTIVES[reason] ?? reason} addresses`;
  const adjective = ADJECTIVES[reason] ?? reason;
  return `${/^[aeiou]/.test(adjective) ? 'an' : 'a'} ${adjective} address`;
}

/** True for an IP literal (what `URL.hostname` gives, brackets and all). */
export function isIPLiteral(hostname: string): boolean {
  return isIPv4(hostname) || isIP(hostname.replace(/^\[|\]$/g, '')) === 6;
}
