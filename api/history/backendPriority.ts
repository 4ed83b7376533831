import fs from 'node:fs';
import os from 'node:os';
import type pg from 'pg';

/**
 * Puts the connection's PostgreSQL backend at the lowest CPU priority (nice 19), as the thread that
 * reads through it, when the database runs on this machine as a process this one may renice (the
 * embedded PostgreSQL, which runs beside the API by default): the backend of an auditor's verify, reading
 * and joining 50,000 links, then gets the CPU only when the room's requests leave it. Anywhere else
 * (another machine, another user, another PID namespace) nothing changes (decision 154).
 *
 * The backend's PID is PostgreSQL's; before a PID is reniced, the process with it here must be that
 * backend: a PostgreSQL process whose title names this connection's own local port.
 */
export async function lowerBackendPriority(client: pg.ClientBase): Promise<boolean> {
  const { rows } = await client.query<{ pid: number; port: number | null }>(
    'SELECT pg_backend_pid() AS pid, inet_client_port() AS port',
  );
  const { pid, port } = rows[0]!;
  if (port === null) return false; // a Unix socket: no port to check the title against
  let title: string;
  try {
    title = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return false; // no such process here: the database is elsewhere
  }
  if (!title.startsWith('postgres') || !title.includes(`(${port})`)) return false;
  try {
    os.setPriority(pid, 19);
  } catch {
    return false; // not ours to renice
  }
  // Each backend is a session of its own (PostgreSQL calls setsid), and where the kernel groups CPU
  // time by session (autogroup, on by default on desktop and many server kernels) a backend's nice
  // weighs only against its own session: it then had as much CPU as the whole API. The session's
  // nice is set too.
  try {
    fs.writeFileSync(`/proc/${pid}/autogroup`, '19');
  } catch {
    // no autogroup here: the process's nice is what counts
  }
  return true;
}
