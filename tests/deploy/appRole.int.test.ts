import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '#api/config.ts';
import { startServer, type RunningServer } from '#api/server.ts';
import { serverUrl } from '../support/database.ts';
import { ADMIN_KEY, client, PASSWORDS } from '../support/server.ts';
import { waitFor } from '../support/wait.ts';

/**
 * The database role docker-compose.yml gives the app (deploy/postgres/app-role.sql, run once by the
 * postgres image's init script), made on the test server by the same SQL: the whole program migrates
 * and runs as it.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const suffix = randomBytes(4).toString('hex');
const role = { user: `app_${suffix}`, password: randomBytes(18).toString('base64url'), database: `app_db_${suffix}` };

/** app-role.sql with psql's variables filled in, one statement at a time (CREATE DATABASE stands alone). */
function appRoleStatements(): string[] {
  const sql = fs
    .readFileSync(path.join(ROOT, 'deploy/postgres/app-role.sql'), 'utf8')
    .replace(/^--.*$/gm, '')
    .replaceAll(`:"app_user"`, pg.escapeIdentifier(role.user))
    .replaceAll(`:'app_password'`, pg.escapeLiteral(role.password))
    .replaceAll(`:"app_database"`, pg.escapeIdentifier(role.database));
  return sql
    .split(';')
    .map((s) => s.trim())
    .filter(Boolean);
}

const superuser = () => new pg.Client({ connectionString: serverUrl() });
let server: RunningServer;
let dataDir: string;
let appUrl: string;

beforeAll(async () => {
  const admin = superuser();
  await admin.connect();
  try {
    for (const statement of appRoleStatements()) await admin.query(statement);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl());
  url.username = role.user;
  url.password = role.password;
  url.pathname = `/${role.database}`;
  appUrl = url.toString();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tribute-role-'));
  server = await startServer(
    loadConfig({
      NODE_ENV: 'test',
      PORT: '0',
      DATA_DIR: dataDir,
      DATABASE_URL: appUrl,
      GALLERY_PASSWORD: PASSWORDS.guest,
      ADMIN_PASSWORD: PASSWORDS.admin,
      ADMIN_KEY,
      TZ: 'UTC',
    }),
  );
});

afterAll(async () => {
  await server?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
  const admin = superuser();
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(role.database)} WITH (FORCE)`);
    await admin.query(`DROP ROLE IF EXISTS ${pg.escapeIdentifier(role.user)}`);
  } finally {
    await admin.end();
  }
});

describe("the deployment's database role", () => {
  it('is no superuser, may make no roles or databases, and owns its database', async () => {
    const app = new pg.Client({ connectionString: appUrl });
    await app.connect();
    try {
      const me = await app.query(
        `SELECT rolsuper, rolcreatedb, rolcreaterole, rolreplication, rolbypassrls,
                (SELECT pg_get_userbyid(datdba) FROM pg_database WHERE datname = current_database()) AS owner
           FROM pg_roles WHERE rolname = current_user`,
      );
      expect(me.rows[0]).toEqual({
        rolsuper: false,
        rolcreatedb: false,
        rolcreaterole: false,
        rolreplication: false,
        rolbypassrls: false,
        owner: role.user,
      });
      await expect(app.query(`CREATE DATABASE ${role.database}_x`)).rejects.toMatchObject({ code: '42501' });
      await expect(app.query(`CREATE ROLE ${role.user}_x`)).rejects.toMatchObject({ code: '42501' });
      // the program's migrations made every table as this role
      const foreign = await app.query(
        `SELECT schemaname, tablename FROM pg_tables
          WHERE schemaname NOT IN ('pg_catalog', 'information_schema') AND tableowner <> current_user`,
      );
      expect(foreign.rows).toEqual([]);
    } finally {
      await app.end();
    }
  });

  it('runs the whole program: a guest submits, the admin approves, the gallery shows it', async () => {
    const url = `http://127.0.0.1:${server.port}`;
    const login = async (password: string) => {
      const res = await client(url)('POST', '/api/auth/login', { password });
      return res.body.sessionToken as string;
    };
    const guest = client(url, await login(PASSWORDS.guest));
    const admin = client(url, await login(PASSWORDS.admin));
    const story = await guest('POST', '/api/stories', {
      content: 'Made as the app role',
      authorName: 'Kim',
      isAnonymous: true,
    });
    expect(story.status).toBe(201);
    expect((await admin('PATCH', `/api/admin/stories/${story.body.id}`, { status: 'approved' })).status).toBe(200);
    await waitFor(async () => (await guest('GET', '/api/gallery')).body.total === 1);
  });
});
