import express from 'express';

/** Express's 'trust proxy' setting: a hop count, a boolean, or addresses and subnets. */
export type TrustProxy = number | boolean | string[];

/**
 * Reads TRUST_PROXY as Express documents it: "1" is one hop (not the address 0.0.0.1), "true" and
 * "false" are booleans, anything else a comma list of addresses, subnets or the names loopback,
 * linklocal and uniquelocal. Throws a readable message for an entry Express cannot use.
 */
export function parseTrustProxy(raw: string | undefined): TrustProxy {
  const value = raw?.trim() ?? '';
  if (value === '' || value === 'false') return false;
  if (value === 'true') return true;
  if (/^\d+$/.test(value)) return Number(value);
  const list = value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  for (const entry of list) {
    try {
      // express compiles the setting when it is set: the same check the server will make
      express().set('trust proxy', [entry]);
    } catch {
      throw new Error(
        `TRUST_PROXY: "${entry}" is not a hop count, true/false, an IP address, a subnet, or loopback/linklocal/uniquelocal`,
      );
    }
  }
  return list;
}
