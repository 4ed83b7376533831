import { projectionNamed, projections } from '#projections/index.ts';
import { check, rebuild } from '#projections/maintenance.ts';
import { runCommand, withStore } from './cli.ts';

const usage = `usage: npm run projections -- rebuild [NAME]
       npm run projections -- check

  rebuild  rebuilds read models from position 0
  check    replays into a scratch schema and compares with the live read models; exit 1 on a difference
projections: ${projections
  .filter((p) => p.rebuildable)
  .map((p) => p.name)
  .join(', ')}`;

async function main([command, name]: string[]): Promise<number> {
  const chosen = name ? [projectionNamed(name)] : projections.filter((p) => p.rebuildable);
  switch (command) {
    case 'rebuild':
      return withStore(async (store) => {
        for (const p of chosen) {
          const at = await rebuild(store, p);
          console.log(`rebuilt ${p.name} up to seq ${at}`);
        }
        return 0;
      });
    case 'check':
      return withStore(async (store) => {
        for (const p of chosen) {
          const result = await check(store, p);
          if (!result.ok) {
            console.error(`${p.name}: differs in ${result.table}: ${result.difference}`);
            return 1;
          }
          console.log(`${p.name}: equal to a replay of the log`);
        }
        return 0;
      });
    default:
      console.error(usage);
      return 2;
  }
}

await runCommand(usage, main);
