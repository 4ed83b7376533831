import path from 'node:path';
import { z } from 'zod';
import { parseTrustProxy } from './http/trustProxy.ts';
import { NODE_ENVS, nodeEnvOf, weakSecretProblems } from './secretStrength.ts';

const DEMO = {
  galleryPassword: 'gallery-demo',
  adminPassword: 'admin-demo',
  adminKey: 'admin-key-demo',
} as const;

const boolish = z
  .enum(['true', 'false', '1', '0', ''])
  .optional()
  .transform((v) => v === 'true' || v === '1');

/** Raised for a setting the program cannot run with; main.ts prints it without a stack trace. */
export class ConfigError extends Error {}

function isTimeZone(zone: string) {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const calendarDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date written YYYY-MM-DD')
  .refine((v) => new Date(`${v}T00:00:00Z`).toISOString().startsWith(v), 'is not a real calendar date');
const dateTime = z.string().refine((v) => !Number.isNaN(Date.parse(v)), 'must be a date or date and time (ISO 8601)');

const Env = z.object({
  NODE_ENV: z
    .string()
    .optional()
    .transform((v, ctx) => {
      const known = nodeEnvOf(v);
      if (known) return known;
      ctx.addIssue({
        code: 'custom',
        message: `${JSON.stringify(v)} is not one this program knows (${NODE_ENVS.join(', ')})`,
      });
      return z.NEVER;
    }),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  DATA_DIR: z.string().default('./.data'),
  DATABASE_URL: z.string().optional(),
  MINIO_ENDPOINT: z.string().optional(),
  MINIO_PORT: z.coerce.number().int().optional(),
  MINIO_USE_SSL: boolish,
  MINIO_ACCESS_KEY: z.string().optional(),
  MINIO_SECRET_KEY: z.string().optional(),
  MINIO_BUCKET: z.string().default('tribute-gallery'),
  GALLERY_PASSWORD: z.string().optional(),
  ADMIN_PASSWORD: z.string().optional(),
  AUDITOR_PASSWORD: z.string().optional(),
  ADMIN_KEY: z.string().optional(),
  TRIBUTE_NAME: z.string().default('Alex'),
  TRIBUTE_BIRTHDAY: calendarDate.default('2025-09-12'),
  TRIBUTE_AGE: z.coerce.number().int().positive().default(50),
  WELCOME_CUTOFF: dateTime.default('2025-09-10T23:59:59'),
  CELEBRATION_START: calendarDate.default('2025-09-11'),
  CELEBRATION_END: calendarDate.default('2025-09-15'),
  TZ: z
    .string()
    .optional()
    .refine((v) => !v || isTimeZone(v), 'is not a time zone this Node knows (an IANA name such as Europe/Berlin)'),
  LIKE_IDENTITY: z.enum(['visitor', 'ip']).default('visitor'),
  TRUST_PROXY: z
    .string()
    .optional()
    .transform((v, ctx) => {
      try {
        return parseTrustProxy(v);
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: (error as Error).message.replace(/^TRUST_PROXY: /, '') });
        return z.NEVER;
      }
    }),
  /** unset: info, or warn under NODE_ENV=test */
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).optional(),
  /** How long a stopping process may take to drain HTTP and finish the job in flight. */
  SHUTDOWN_GRACE_MS: z.coerce.number().int().positive().default(10_000),
  /**
   * Not in the contract: the internal port for /metrics (and /ready, /health-check) of every role, the
   * worker's included; unset: /metrics on PORT and none for a worker. docs/decisions/080.
   */
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  /** Not in the contract: an auditor's or admin's read gives up on a statement running longer (decision 101). */
  AUDIT_STATEMENT_TIMEOUT_MS: z.coerce.number().int().positive().default(5000),
  /** Screens are told the server is catching up while the projections are more events than this behind. */
  READY_MAX_LAG: z.coerce.number().int().nonnegative().default(1000),
  /** Not in the contract: the ffmpeg and ffprobe to run (both, or neither: PATH, then the npm builds). */
  FFMPEG_PATH: z.string().optional(),
  FFPROBE_PATH: z.string().optional(),
  /** Not in the contract: lets tests refuse "too large" without sending 512 MB. */
  MEDIA_MAX_BYTES: z.coerce.number().int().positive().default(536_870_912),
  /** Not in the contract: uploads stop with 507 while a disk they are written to has less free. */
  STORAGE_RESERVE_BYTES: z.coerce
    .number()
    .int()
    .nonnegative()
    .default(1024 * 1024 * 1024),
  /** Not in the contract: the most the blob store (the bucket) may hold; unset, only the disks count. */
  STORAGE_MAX_BYTES: z.coerce.number().int().positive().optional(),
});

/** Every setting the program reads through this schema, by name (`.env.example` is checked against it). */
export const SETTING_NAMES = Object.keys(Env.shape) as (keyof typeof Env.shape)[];

export type Config = ReturnType<typeof loadConfig>;

export function loadConfig(env: NodeJS.ProcessEnv = process.env) {
  const parsed = Env.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.') || '(environment)'}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const production = e.NODE_ENV === 'production';
  const secrets = {
    galleryPassword: e.GALLERY_PASSWORD ?? DEMO.galleryPassword,
    adminPassword: e.ADMIN_PASSWORD ?? DEMO.adminPassword,
    adminKey: e.ADMIN_KEY ?? DEMO.adminKey,
  };
  if (production) {
    const given = {
      galleryPassword: e.GALLERY_PASSWORD,
      adminPassword: e.ADMIN_PASSWORD,
      auditorPassword: e.AUDITOR_PASSWORD,
      adminKey: e.ADMIN_KEY,
    };
    const problems = weakSecretProblems(given, DEMO, [e.TRIBUTE_NAME, e.TRIBUTE_AGE, e.TRIBUTE_BIRTHDAY]);
    if (problems.length) {
      throw new ConfigError(`Refusing to start in production:\n${problems.map((p) => `  ${p}`).join('\n')}`);
    }
  }
  const dataDir = path.resolve(e.DATA_DIR);
  return {
    production,
    port: e.PORT,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    minio: e.MINIO_ENDPOINT
      ? {
          endPoint: e.MINIO_ENDPOINT,
          port: e.MINIO_PORT,
          useSSL: e.MINIO_USE_SSL,
          accessKey: e.MINIO_ACCESS_KEY ?? '',
          secretKey: e.MINIO_SECRET_KEY ?? '',
          bucket: e.MINIO_BUCKET,
        }
      : undefined,
    blobDir: path.join(dataDir, 'blobs'),
    ...secrets,
    auditorPassword: e.AUDITOR_PASSWORD || undefined,
    usingDemoSecrets: {
      galleryPassword: !e.GALLERY_PASSWORD,
      adminPassword: !e.ADMIN_PASSWORD,
      adminKey: !e.ADMIN_KEY,
    },
    tribute: {
      name: e.TRIBUTE_NAME,
      birthday: e.TRIBUTE_BIRTHDAY,
      age: e.TRIBUTE_AGE,
      welcomeCutoff: e.WELCOME_CUTOFF,
      celebrationStart: e.CELEBRATION_START,
      celebrationEnd: e.CELEBRATION_END,
    },
    timeZone: e.TZ || Intl.DateTimeFormat().resolvedOptions().timeZone,
    likeIdentity: e.LIKE_IDENTITY,
    trustProxy: e.TRUST_PROXY,
    mediaMaxBytes: e.MEDIA_MAX_BYTES,
    storage: { reserveBytes: e.STORAGE_RESERVE_BYTES, maxBytes: e.STORAGE_MAX_BYTES },
    logLevel: e.LOG_LEVEL ?? (e.NODE_ENV === 'test' ? 'warn' : 'info'),
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
    readyMaxLag: e.READY_MAX_LAG,
    auditStatementTimeoutMs: e.AUDIT_STATEMENT_TIMEOUT_MS,
    metricsPort: e.METRICS_PORT,
  };
}
