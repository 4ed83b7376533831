import { projectionNamed, projections } from '#projections/index.ts';
import { check, rebuild } from '#projections/maintenance.ts';
import { type CommandIo, withStore } from './cli.ts';

export const usage = `usage: npm run projections -- rebuild [NAME]
       npm run projections -- check

  rebuild  rebuilds read models from position 0
  check    replays into a scratch schema and compares with the live read models; exit 1 on a difference
projections: ${projections
  .filter((p) => p.rebuildable)
  .map((p) => p.name)
  .join(', ')}`;

/** `npm run projections -- …` (scripts/projections.ts), on the settings and output `io` gives it. */
export async function projectionsMain([command, name]: string[], io: CommandIo): Promise<number> {
  const chosen = name ? [projectionNamed(name)] : projections.filter((p) => p.rebuildable);
  switch (command) {
    case 'rebuild':
      return withStore(async (store) => {
        for (const p of chosen) {
          const at = await rebuild(store, p);
          io.out(`rebuilt ${p.name} up to seq ${at}`);
        }
        return 0;
      }, io.env);
    case 'check':
      return withStore(async (store) => {
        for (const p of chosen) {
          const result = await check(store, p);
          if (!result.ok) {
            io.err(`${p.name}: differs in ${result.table}: ${result.difference}`);
            return 1;
          }
          io.out(`${p.name}: equal to a replay of the log`);
        }
        return 0;
      }, io.env);
    default:
      io.err(usage);
      return 2;
  }
}
