import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const built = path.join(root, 'dist/web/index.html');

/** The newest modification time under a folder. */
function newest(dir: string): number {
  let latest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && !entry.name.endsWith('.gen.ts')) {
      latest = Math.max(latest, fs.statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
    }
  }
  return latest;
}

// Build the web app when it is missing or older than its sources (not just to print --help).
const helpOnly = process.argv.includes('--help') || process.argv.includes('-h');
if (!helpOnly && (!fs.existsSync(built) || fs.statSync(built).mtimeMs < newest(path.join(root, 'web')))) {
  console.log('Building the web app…');
  const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

await import('../api/main.ts');
