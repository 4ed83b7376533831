import { createHmac } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';

/** The affinity cookie's name, as deploy/Caddyfile's `lb_policy cookie` names it (decision 053). */
export const AFFINITY_COOKIE = 'tg_lb';

/** Caddy's cookie value: the hex HMAC-SHA256 of the backend's dial address (no secret configured). */
const affinityOf = (port: number) => createHmac('sha256', '').update(`127.0.0.1:${port}`).digest('hex');

function cookieOf(headers: http.IncomingHttpHeaders, name: string): string | undefined {
  for (const pair of (headers.cookie ?? '').split(';')) {
    const [key, ...value] = pair.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}

export interface ProxyOptions {
  /** Caddy's `lb_policy cookie` (the default, as deployed); false: plain round robin, as before decision 053 */
  sticky?: boolean;
  /** refuse WebSocket upgrades, as a proxy or firewall on a visitor's network may */
  blockWebSockets?: boolean;
}

/**
 * A small reverse proxy standing in for Caddy with deploy/Caddyfile: HTTP and WebSocket upgrades,
 * `X-Forwarded-For` appended. A request without the affinity cookie (or whose backend is down) goes
 * to the next backend in turn and is answered with the cookie naming it; a request with it goes to
 * that backend, as Caddy's `lb_policy cookie` with `fallback round_robin` does. A test may pin a
 * request to one backend with the `x-backend: N` header (0-based), to prove something crossed from
 * one process to the other.
 */
export async function startProxy(ports: number[], { sticky = true, blockWebSockets = false }: ProxyOptions = {}) {
  let turn = 0;
  // a backend that refused a connection is skipped until it is started again (as Caddy's health checks do)
  const down = new Set<number>();
  const nextInTurn = () => {
    for (let tries = 0; tries < ports.length; tries++) {
      const port = ports[turn++ % ports.length]!;
      if (!down.has(port)) return port;
    }
    return ports[turn++ % ports.length]!;
  };
  /** the backend for a request, and the affinity cookie to answer with when it was newly chosen */
  const pick = (headers: http.IncomingHttpHeaders): { port: number; setCookie?: string } => {
    const pinned = Number(headers['x-backend']);
    if (Number.isInteger(pinned) && ports[pinned]) return { port: ports[pinned]! };
    if (!sticky) return { port: nextInTurn() };
    const affinity = cookieOf(headers, AFFINITY_COOKIE);
    const held = ports.find((port) => !down.has(port) && affinityOf(port) === affinity);
    if (held !== undefined) return { port: held };
    const port = nextInTurn();
    return { port, setCookie: `${AFFINITY_COOKIE}=${affinityOf(port)}; Path=/` };
  };
  const refused = (port: number, error: NodeJS.ErrnoException) => {
    if (error.code === 'ECONNREFUSED') down.add(port);
  };
  const forwarded = (req: http.IncomingMessage) => {
    const prior = req.headers['x-forwarded-for'];
    const address = req.socket.remoteAddress ?? '';
    return prior ? `${prior}, ${address}` : address;
  };
  const counts = new Map<number, number>();
  /** the backend port each WebSocket was sent to, in order */
  const upgrades: number[] = [];

  // A request whose backend refuses the connection goes to the next one, as Caddy does with
  // lb_try_duration: nothing reached the refusing backend, so even a POST is safe to send again.
  const forward = (req: http.IncomingMessage, res: http.ServerResponse, body: Buffer, tries: number) => {
    const { port, setCookie } = pick(req.headers);
    counts.set(port, (counts.get(port) ?? 0) + 1);
    const upstream = http.request(
      {
        host: '127.0.0.1',
        port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, 'x-forwarded-for': forwarded(req), 'x-forwarded-proto': 'http' },
      },
      (answer) => {
        const headers = { ...answer.headers };
        if (setCookie) headers['set-cookie'] = [...(headers['set-cookie'] ?? []), setCookie];
        res.writeHead(answer.statusCode ?? 502, headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', (error: NodeJS.ErrnoException) => {
      refused(port, error);
      if (error.code === 'ECONNREFUSED' && tries < ports.length) return forward(req, res, body, tries + 1);
      if (!res.headersSent) res.writeHead(502).end('bad gateway');
      else res.destroy();
    });
    upstream.end(body);
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => forward(req, res, Buffer.concat(chunks), 1));
  });

  server.on('upgrade', (req, socket, head) => {
    if (blockWebSockets) {
      socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    const { port } = pick(req.headers);
    upgrades.push(port);
    const upstream = net.connect(port, '127.0.0.1', () => {
      const headers = { ...req.headers, 'x-forwarded-for': forwarded(req) };
      const lines = Object.entries(headers).flatMap(([k, v]) =>
        Array.isArray(v) ? v.map((x) => `${k}: ${x}`) : [`${k}: ${v}`],
      );
      upstream.write(`${req.method} ${req.url} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n`);
      if (head.length) upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    const end = () => {
      upstream.destroy();
      socket.destroy();
    };
    upstream.on('error', (error) => {
      refused(port, error);
      end();
    });
    socket.on('error', end);
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    /** requests answered by each backend port so far */
    counts,
    upgrades,
    /** tells the proxy a backend is serving again */
    markUp: (port: number) => down.delete(port),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
