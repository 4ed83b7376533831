import { isIPv4, isIPv6 } from 'node:net';

/**
 * One spelling per address: IPv4-mapped IPv6 (`::ffff:127.0.0.1`) becomes the IPv4 address, IPv6 is
 * lower-case and compressed as RFC 5952 writes it. Anything else comes back unchanged.
 */
export function canonicalAddress(ip: string): string {
  const raw = ip.trim();
  if (isIPv4(raw)) return raw;
  if (!isIPv6(raw.replace(/%.*$/, ''))) return raw;
  const ipv6 = new URL(`http://[${raw.replace(/%.*$/, '')}]/`).hostname.slice(1, -1);
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(ipv6);
  if (mapped) {
    const [hi, lo] = [parseInt(mapped[1]!, 16), parseInt(mapped[2]!, 16)];
    return [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
  }
  return ipv6;
}

/** The unit a limit counts: an IPv4 address, or the /64 an IPv6 address belongs to (one subscriber's). */
export function addressGroup(ip: string): string {
  const address = canonicalAddress(ip);
  if (!isIPv6(address)) return address;
  const [head = '', tail = ''] = address.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = address.includes('::')
    ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right]
    : left;
  return `${groups.slice(0, 4).join(':')}::/64`;
}
