/**
 * Which network addresses a webhook may reach. A LAN appliance must never POST to its router, a
 * cloud metadata service or itself because someone registered such a URL (SSRF), so the rule is an
 * allow-list of *public unicast* space, not a deny-list of the ranges we happen to remember:
 * IPv4 outside every IANA special-purpose block, IPv6 inside 2000::/3 (global unicast) minus the
 * special blocks there. Operators admit LAN receivers on purpose with VECTORIZE_WEBHOOK_ALLOW_CIDRS.
 *
 * Node's BlockList matches IPv4-mapped IPv6 (::ffff:a.b.c.d) against IPv4 rules, so a mapped
 * loopback is refused like the plain one. NAT64 (64:ff9b::/96), 6to4 (2002::/16) and Teredo
 * (2001::/32) embed IPv4 addresses a gateway would reach for us, so they are refused whole.
 */
import net from 'node:net';

const SPECIAL_IPV4: Array<[string, number, string]> = [
  ['0.0.0.0', 8, 'this network'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'carrier-grade NAT'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local (cloud metadata)'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'IETF protocol assignments'],
  ['192.0.2.0', 24, 'documentation'],
  ['192.31.196.0', 24, 'AS112'],
  ['192.52.193.0', 24, 'AMT'],
  ['192.88.99.0', 24, '6to4 relay anycast'],
  ['192.168.0.0', 16, 'private'],
  ['192.175.48.0', 24, 'AS112'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'],
];

const SPECIAL_IPV6_IN_GLOBAL: Array<[string, number, string]> = [
  ['2001::', 23, 'IETF protocol assignments (Teredo, benchmarking, ORCHID)'],
  ['2001:db8::', 32, 'documentation'],
  ['2002::', 16, '6to4 (embeds an IPv4 address)'],
  ['3fff::', 20, 'documentation'],
];

function buildList(entries: Array<[string, number, string]>, type: 'ipv4' | 'ipv6'): Array<[net.BlockList, string]> {
  return entries.map(([address, prefix, reason]) => {
    const list = new net.BlockList();
    list.addSubnet(address, prefix, type);
    return [list, reason];
  });
}

const specialV4 = buildList(SPECIAL_IPV4, 'ipv4');
const specialV6 = buildList(SPECIAL_IPV6_IN_GLOBAL, 'ipv6');
const globalUnicastV6 = new net.BlockList();
globalUnicastV6.addSubnet('2000::', 3, 'ipv6');

interface AddressVerdict {
  allowed: boolean;
  /** Why it was refused (or 'public' / 'allow-listed'). */
  reason: string;
}

/** Parses `a.b.c.d/n` and `x::y/n` lists; throws naming the bad entry. */
export function parseCidrList(value: string): net.BlockList {
  const list = new net.BlockList();
  for (const raw of value
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)) {
    const [address, prefixText] = raw.split('/');
    const family = net.isIP(address ?? '');
    const prefix = prefixText === undefined ? (family === 6 ? 128 : 32) : Number(prefixText);
    if (!family || !Number.isInteger(prefix) || prefix < 0 || prefix > (family === 6 ? 128 : 32)) {
      throw new Error(`"${raw}" is not a CIDR range`);
    }
    list.addSubnet(address!, prefix, family === 6 ? 'ipv6' : 'ipv4');
  }
  return list;
}

/** 16 bytes of an IPv6 address (net.isIPv6 already said it is one). */
function ipv6Bytes(address: string): Uint8Array {
  let text = address.split('%')[0]!;
  const bytes = new Uint8Array(16);
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1]!.split('.').map(Number);
    text = `${text.slice(0, dotted.index)}${((a! << 8) | b!).toString(16)}:${((c! << 8) | d!).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  const groups =
    tail === undefined ? headGroups : [...headGroups, ...Array<string>(8 - headGroups.length - tailGroups.length).fill('0'), ...tailGroups];
  groups.forEach((group, index) => {
    const value = parseInt(group, 16);
    bytes[index * 2] = value >> 8;
    bytes[index * 2 + 1] = value & 0xff;
  });
  return bytes;
}

export class AddressPolicy {
  private readonly allow: net.BlockList;

  constructor(allowCidrs: net.BlockList | string = '') {
    this.allow = typeof allowCidrs === 'string' ? parseCidrList(allowCidrs) : allowCidrs;
  }

  check(address: string): AddressVerdict {
    const family = net.isIP(address);
    if (family === 0) return { allowed: false, reason: 'not an IP address' };
    if (this.allow.check(address, family === 4 ? 'ipv4' : 'ipv6')) return { allowed: true, reason: 'allow-listed' };
    if (family === 4) return this.checkIpv4(address);
    const bytes = ipv6Bytes(address);
    // ::ffff:a.b.c.d reaches the IPv4 host a.b.c.d: judge it as that host.
    if (bytes.subarray(0, 10).every((byte) => byte === 0) && bytes[10] === 0xff && bytes[11] === 0xff) {
      return this.checkIpv4(bytes.subarray(12).join('.'));
    }
    if (!globalUnicastV6.check(address, 'ipv6')) {
      return { allowed: false, reason: 'not IPv6 global unicast (loopback, link-local, unique-local, multicast, NAT64 or reserved)' };
    }
    for (const [list, reason] of specialV6) if (list.check(address, 'ipv6')) return { allowed: false, reason };
    return { allowed: true, reason: 'public' };
  }

  private checkIpv4(address: string): AddressVerdict {
    if (this.allow.check(address, 'ipv4')) return { allowed: true, reason: 'allow-listed' };
    if (address === '255.255.255.255') return { allowed: false, reason: 'broadcast' };
    for (const [list, reason] of specialV4) if (list.check(address, 'ipv4')) return { allowed: false, reason };
    return { allowed: true, reason: 'public' };
  }
}
