import { parseArgs } from 'node:util';
import { loadConfig } from './config.ts';
import { startServer, type Role } from './server.ts';

const { values } = parseArgs({ options: { role: { type: 'string', default: 'all' } } });
const role = values.role as Role;
if (!['api', 'worker', 'all'].includes(role)) {
  console.error(`--role must be api, worker or all (got ${role})`);
  process.exit(2);
}

const config = loadConfig();
const server = await startServer(config, role);

if (server.port) console.log(`Tribute Gallery (${role}) on http://localhost:${server.port}`);
else console.log(`Tribute Gallery worker running`);
if (!config.production) {
  const demo = config.usingDemoSecrets;
  console.log('Demo passwords (development only):');
  if (demo.galleryPassword) console.log(`  guest password: ${config.galleryPassword}`);
  if (demo.adminPassword) console.log(`  admin password: ${config.adminPassword}`);
  if (demo.adminKey) console.log(`  admin key:      ${config.adminKey}`);
}

let closing = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (closing) process.exit(1);
    closing = true;
    server.close().then(
      () => process.exit(0),
      (error) => {
        console.error(error);
        process.exit(1);
      },
    );
  });
}
