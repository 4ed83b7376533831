import { Writable } from 'node:stream';
import { type CommandMain, commandStatus } from '../../scripts/cli.ts';
import { eventsMain, usage as eventsUsage } from '../../scripts/eventsCommand.ts';
import { projectionsMain, usage as projectionsUsage } from '../../scripts/projectionsCommand.ts';

export interface CommandRun {
  code: number;
  /** what it printed and wrote to stdout, in order, as a CLI run's stdout */
  out: string;
  /** its warnings and failures, as a CLI run's stderr */
  err: string;
}

/**
 * `npm run events -- …args` run in this process on `env` (the test's DATABASE_URL and DATA_DIR over
 * this process's environment, as a CLI run of it gets): the same main, usage and exit statuses as
 * scripts/events.ts, without a new Node (about 0.8 s of CPU each, docs/test-times.md). For tests of
 * what a command does; its command line keeps CLI runs of its own (scripts/commands.int.test.ts and
 * at least one in each file that uses this).
 */
export const runEvents = (args: string[], env: Record<string, string>) => inProcess(eventsUsage, eventsMain, args, env);

/** `npm run projections -- …args` in this process, as runEvents. */
export const runProjections = (args: string[], env: Record<string, string>) =>
  inProcess(projectionsUsage, projectionsMain, args, env);

async function inProcess(
  usage: string,
  main: CommandMain,
  args: string[],
  env: Record<string, string>,
): Promise<CommandRun> {
  const out: string[] = [];
  const err: string[] = [];
  const stdout = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      out.push(String(chunk));
      done();
    },
  });
  const code = await commandStatus(usage, main, args, {
    env: { ...process.env, ...env },
    out: (line) => out.push(`${line}\n`),
    err: (line) => err.push(`${line}\n`),
    stdout,
  });
  return { code, out: out.join(''), err: err.join('') };
}
