import { processIo, runCommand } from './cli.ts';
import { projectionsMain, usage } from './projectionsCommand.ts';

// The command itself is in projectionsCommand.ts, so that a test can run it in-process (tests/support/commands.ts).
await runCommand(usage, (args) => projectionsMain(args, processIo));
