import express from 'express';
import { describe, expect, it } from 'vitest';
import { parseTrustProxy } from './trustProxy.ts';

describe('parseTrustProxy', () => {
  it('reads numbers as hop counts and true/false as booleans', () => {
    expect(parseTrustProxy('1')).toBe(1);
    expect(parseTrustProxy('2')).toBe(2);
    expect(parseTrustProxy('0')).toBe(0);
    expect(parseTrustProxy('true')).toBe(true);
    expect(parseTrustProxy('false')).toBe(false);
    expect(parseTrustProxy(undefined)).toBe(false);
    expect(parseTrustProxy('')).toBe(false);
  });

  it('reads anything else as a comma list of addresses, subnets and names', () => {
    expect(parseTrustProxy('10.0.0.0/8, 127.0.0.1,::1')).toEqual(['10.0.0.0/8', '127.0.0.1', '::1']);
    expect(parseTrustProxy('loopback, uniquelocal')).toEqual(['loopback', 'uniquelocal']);
  });

  it('refuses entries Express cannot use, naming them', () => {
    expect(() => parseTrustProxy('proxy.example.com')).toThrow('"proxy.example.com" is not a hop count');
    expect(() => parseTrustProxy('10.0.0.0/99')).toThrow('"10.0.0.0/99"');
  });

  it('gives Express what its own documentation means: "1" trusts one hop', () => {
    const app = express();
    app.set('trust proxy', parseTrustProxy('1'));
    const trust = app.get('trust proxy fn') as (address: string, hop: number) => boolean;
    expect(trust('203.0.113.1', 0)).toBe(true);
    expect(trust('203.0.113.1', 1)).toBe(false);
  });
});
