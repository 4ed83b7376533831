import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

/**
 * A directory for the run's test media (tests/support/media.ts): each ffmpeg fixture is made once
 * per run, by whichever file asks first, and copied from here by every other file of either worker.
 * Removed at the end of the run.
 */
export default function setup(project: TestProject) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tribute-media-cache-'));
  project.provide('mediaCacheDir', dir);
  return () => fs.rmSync(dir, { recursive: true, force: true });
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** where the run's ffmpeg fixtures are kept, by a digest of the ffmpeg binary and its arguments */
    mediaCacheDir: string | undefined;
  }
}
