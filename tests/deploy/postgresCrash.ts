import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type pg from 'pg';
import { waitFor } from '../support/wait.ts';

/**
 * The fields of /proc/PID/stat after the command name (state, ppid, ... : field 3 onwards), or
 * undefined once the process is gone. The name is in parentheses and may hold spaces.
 */
function statFields(pid: number): string[] | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** The postmaster of a data directory and its children (backends, WAL writer, checkpointer...). */
function postgresProcesses(dataDir: string): number[] {
  const postmaster = Number(fs.readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  const children = fs
    .readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .flatMap((d) => (Number(statFields(Number(d))?.[1]) === postmaster ? [Number(d)] : []));
  return [postmaster, ...children];
}

/** When a process started (field 22 of /proc/PID/stat), or undefined once it is gone. */
const startTime = (pid: number): string | undefined => statFields(pid)?.[19];

/** Whether a process is there and not a zombie (its state, field 3). */
const alive = (pid: number) => {
  const state = statFields(pid)?.[0];
  return state !== undefined && state !== 'Z';
};

function signal(pids: number[], name: NodeJS.Signals) {
  for (const pid of pids) {
    try {
      process.kill(pid, name);
    } catch {
      // a backend that had ended already
    }
  }
}

/**
 * Makes ready to kill the PostgreSQL server of `dataDir` (SIGKILL, no shutdown) at the instant
 * `now()` is called, from inside whatever the test wants to crash. Every process of the server but
 * the probe's backend is stopped at once (the postmaster first, so it forks no more, the processes
 * known beforehand first, so that costs no time): nothing commits and no WAL is written out from then
 * on. The probe then reads what is committed at that instant, unflushed commits included, and all are
 * killed. If the read waits on a lock a stopped process holds, all go on and the next `now()` is
 * tried. `crashed` resolves with what the probe read once every process is gone.
 */
export async function prepareCrash<T>(dataDir: string, probe: pg.Client, read: (probe: pg.Client) => Promise<T>) {
  const probePid = (await probe.query<{ pid: number }>(`SELECT pg_backend_pid() AS pid`)).rows[0]!.pid;
  // each known by its start time too: a backend that ends before the crash leaves its PID to the next
  // process the machine starts (PIDs wrap at 32,768 here), which must not be stopped and killed (a
  // test run's own worker was, in run 28)
  const known = postgresProcesses(dataDir)
    .filter((pid) => pid !== probePid)
    .map((pid) => ({ pid, start: startTime(pid) }));
  let armed = true;
  let attempts = 0;
  let done: (value: { read: T; attempts: number }) => void = () => {};
  let failed: (error: unknown) => void = () => {};
  const killed = new Promise<{ read: T; attempts: number }>((resolve, reject) => {
    done = resolve;
    failed = reject;
  });
  const now = () => {
    if (!armed) return;
    armed = false;
    attempts++;
    const stillKnown = known
      .filter(({ pid, start }) => start !== undefined && startTime(pid) === start)
      .map((k) => k.pid);
    signal(stillKnown, 'SIGSTOP');
    const frozen = [...new Set([...stillKnown, ...postgresProcesses(dataDir)])].filter((pid) => pid !== probePid);
    signal(frozen, 'SIGSTOP');
    const reading = read(probe);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), 3000)));
    Promise.race([reading, late])
      .then(async (result) => {
        clearTimeout(timer);
        if (result === undefined) {
          signal(frozen, 'SIGCONT');
          await reading;
          armed = true;
          return;
        }
        const all = [...frozen, probePid];
        signal(all, 'SIGKILL');
        await waitFor(async () => all.every((pid) => !alive(pid)), 10_000);
        done({ read: result, attempts });
      })
      .catch(failed);
  };
  return { now, crashed: killed };
}

/**
 * Where the app's DATABASE_URL points: a TCP gate to PostgreSQL's current port, as a fixed address
 * is in production. Closed (`to(undefined)`), it drops every connection, as a dead server does.
 */
export async function startGate() {
  let target: number | undefined;
  const open = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    if (target === undefined) return socket.destroy();
    const upstream = net.connect(target, '127.0.0.1');
    open.add(socket);
    const end = () => {
      open.delete(socket);
      socket.destroy();
      upstream.destroy();
    };
    for (const side of [socket, upstream]) side.on('error', end).on('close', end);
    socket.pipe(upstream).pipe(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    to(port: number | undefined) {
      target = port;
      if (port === undefined) for (const socket of open) socket.destroy();
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
