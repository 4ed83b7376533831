import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadConfig, SETTING_NAMES } from '#api/config.ts';

/**
 * `.env.example` is the operator's whole list (issue 22): every setting of the configuration schema
 * (api/config.ts) is either in it or fixed by compose or the image, compose passes every one of it
 * through to the app, and its values are ones the program accepts.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const example = fs.readFileSync(path.join(ROOT, '.env.example'), 'utf8');
const compose = parse(fs.readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8'), { merge: true }) as {
  services: Record<string, { build?: unknown; environment?: Record<string, string> }>;
};
const dockerfile = fs.readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8');

const entries = new Map(
  example
    .split('\n')
    .filter((line) => /^[A-Z_][A-Z0-9_]*=/.test(line))
    .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)] as const),
);
const appEnv = compose.services['api-1']!.environment!;
const imageEnv = new Set([...dockerfile.matchAll(/^\s*(?:ENV\s+)?([A-Z_]+)=\S+/gm)].map((m) => m[1]!));

/** Set by compose for the app, from other settings or as fixed values the operator has no reason to change. */
const FIXED_BY_COMPOSE = [
  'NODE_ENV',
  'DATABASE_URL',
  'MINIO_ENDPOINT',
  'MINIO_PORT',
  'MINIO_USE_SSL',
  'TRUST_PROXY',
  'SHUTDOWN_GRACE_MS',
  'METRICS_PORT',
];
/** Read by compose itself or by other services, not by the app's schema. */
const NOT_THE_APPS = [
  'SITE_ADDRESS',
  'LB_COOKIE_SECRET',
  'APP_VERSION',
  'POSTGRES_PASSWORD',
  'DATABASE_PASSWORD',
  'S3_ROOT_ACCESS_KEY',
  'S3_ROOT_SECRET_KEY',
];
/** Read by the app outside api/config.ts (the chain key, events/canonical.ts). */
const READ_ELSEWHERE = ['LOG_HMAC_KEY'];

describe('.env.example', () => {
  it('lists every setting of the configuration schema that compose or the image does not fix', () => {
    const missing = SETTING_NAMES.filter(
      (name) => !entries.has(name) && !FIXED_BY_COMPOSE.includes(name) && !imageEnv.has(name),
    );
    expect(missing).toEqual([]);
    for (const name of FIXED_BY_COMPOSE) expect(appEnv[name], name).toBeDefined();
  });

  it('lists nothing the program or compose does not read', () => {
    const known = new Set<string>([...SETTING_NAMES, ...NOT_THE_APPS, ...READ_ELSEWHERE]);
    expect([...entries.keys()].filter((name) => !known.has(name))).toEqual([]);
  });

  it('is passed through by compose, every setting of it, to every app process', () => {
    for (const [name, service] of Object.entries(compose.services)) {
      if (!service.build) continue;
      for (const key of entries.keys()) {
        if (NOT_THE_APPS.includes(key)) continue;
        expect(service.environment?.[key], `${name}: ${key}`).toMatch(new RegExp(`^\\$\\{${key}(:[-?].*)?\\}$`));
      }
    }
    // and the rest are read where they belong
    expect(JSON.stringify(compose.services.proxy)).toContain('${LB_COOKIE_SECRET');
    expect(JSON.stringify(compose.services.proxy)).toContain('${SITE_ADDRESS');
    expect(JSON.stringify(compose.services.postgres)).toContain('${POSTGRES_PASSWORD');
    expect(JSON.stringify(compose.services.postgres)).toContain('${DATABASE_PASSWORD');
    expect(appEnv.DATABASE_URL).toContain('${DATABASE_PASSWORD');
  });

  // production's secret check loads zxcvbn's dictionaries: seconds on a busy machine
  it('holds values the program accepts once the secrets are filled in', { timeout: 30_000 }, () => {
    const filled = Object.fromEntries(
      [...entries].map(([key, value]) => [key, value || `a-long-and-random-${key.toLowerCase()}-value-0123456789`]),
    );
    const config = loadConfig({ ...filled, NODE_ENV: 'production', DATABASE_URL: 'postgres://x@y/z' });
    expect(config.production).toBe(true);
    expect(config.readyMaxLag).toBe(Number(entries.get('READY_MAX_LAG')));
  });
});
