import { processIo, runCommand } from './cli.ts';
import { eventsMain, usage } from './eventsCommand.ts';

// The command itself is in eventsCommand.ts, so that a test can run it in-process (tests/support/commands.ts).
await runCommand(usage, (args) => eventsMain(args, processIo));
