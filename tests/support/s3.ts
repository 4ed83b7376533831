import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { freePort } from '#db/postgres.ts';

/** A real S3-protocol server on a free port, and the MINIO_* settings that point at it. */
export async function startS3() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 's3rver-'));
  const port = await freePort();
  const server = new S3rver({ port, address: '127.0.0.1', silent: true, directory: dir });
  await server.run();
  return {
    env: {
      MINIO_ENDPOINT: '127.0.0.1',
      MINIO_PORT: String(port),
      MINIO_USE_SSL: 'false',
      MINIO_ACCESS_KEY: 'S3RVER',
      MINIO_SECRET_KEY: 'S3RVER',
      MINIO_BUCKET: 'tribute-test',
    },
    async stop() {
      await server.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
