import { verifyChain } from '#events/chain.ts';
import { exportNdjson } from '#events/export.ts';
import { PersonalData } from '#api/personalData.ts';
import { argValue, withStore } from './cli.ts';

const [command, ...args] = process.argv.slice(2);

const usage = `usage: npm run events -- verify
       npm run events -- export [--from N] [--to N]
       npm run events -- erase (--email ADDRESS | --address IP)`;

async function main(): Promise<number> {
  switch (command) {
    case 'verify':
      return withStore(async (store) => {
        const result = await verifyChain(store.pool);
        if (result.ok) {
          console.log(
            `ok: ${result.checked} events checked` + (result.unsealed ? `, ${result.unsealed} not yet sealed` : ''),
          );
          return 0;
        }
        console.error(
          `FAILED at position ${result.firstBadPosition}: ${result.reason} (${result.checked} checked before it)`,
        );
        return 1;
      });
    case 'export': {
      const from = Number(argValue(args, '--from') ?? 0);
      const to = argValue(args, '--to');
      return withStore(async (store) => {
        await exportNdjson(store.pool, process.stdout, { from, to: to === undefined ? undefined : Number(to) });
        return 0;
      });
    }
    case 'erase': {
      const email = argValue(args, '--email');
      const address = argValue(args, '--address');
      if (!email === !address) break;
      return withStore(async (store) => {
        const erased = await new PersonalData(store.pool).erase(email ? 'email' : 'ip', (email ?? address)!);
        console.log(`erased ${erased} stored ${email ? 'email' : 'address'} value(s); the log is unchanged`);
        return 0;
      });
    }
  }
  console.error(usage);
  return 2;
}

process.exitCode = await main();
