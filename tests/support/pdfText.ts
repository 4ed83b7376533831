import { spawnSync } from 'node:child_process';

/**
 * A PDF's words as a person copying them would get them: poppler's `pdftotext`, whitespace runs made
 * one space. Debian's poppler-utils; `.ci/run` installs it on a machine that lacks it.
 */
export function pdfText(file: string): string {
  const run = spawnSync('pdftotext', [file, '-'], { encoding: 'utf8' });
  if (run.error)
    throw new Error(`pdftotext could not run (is poppler-utils installed? .ci/run installs it): ${run.error.message}`);
  if (run.status !== 0) throw new Error(`pdftotext ${file} exited with ${run.status}: ${run.stderr}`);
  return run.stdout.replace(/\s+/g, ' ');
}
