import { describe, expect, it } from 'vitest';
import { addressGroup, canonicalAddress } from './address.ts';

describe('addresses in one form', () => {
  it('writes IPv4-mapped IPv6 as the IPv4 address', () => {
    expect(canonicalAddress('::ffff:127.0.0.1')).toBe('127.0.0.1');
    expect(canonicalAddress('::FFFF:7f00:1')).toBe('127.0.0.1');
    expect(canonicalAddress('127.0.0.1')).toBe('127.0.0.1');
  });

  it('writes IPv6 compressed and lower-case', () => {
    expect(canonicalAddress('2001:DB8:0:0:0:0:0:1')).toBe('2001:db8::1');
    expect(canonicalAddress('::1')).toBe('::1');
  });

  it('groups IPv6 by /64 and leaves IPv4 alone', () => {
    expect(addressGroup('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(addressGroup('2001:db8:1:2:bbbb:cccc:dddd:eeee')).toBe('2001:db8:1:2::/64');
    expect(addressGroup('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressGroup('::ffff:10.0.0.7')).toBe('10.0.0.7');
  });
});
