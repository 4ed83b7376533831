import net from 'node:net';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { isUnreachable } from './errors.ts';

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const failureOf = (work: Promise<unknown>) =>
  work.then(
    () => undefined,
    (error: unknown) => error,
  );

// A restart of PostgreSQL under load answered one submission with 500: its pooled client's connection
// broke between BEGIN and the next query, and pg said so in words, with no code.
describe('a database that cannot be reached is told apart from a bug', () => {
  it('counts a refused connection, and a query on a client that is not queryable, as unreachable', async () => {
    const broken = new pg.Client({ host: '127.0.0.1', port: await closedPort(), connectionTimeoutMillis: 2000 });
    const refused = await failureOf(broken.connect());
    expect(isUnreachable(refused)).toBe(true);

    const closed = new pg.Client({ host: '127.0.0.1', port: await closedPort() });
    await closed.end();
    const onClosed = await failureOf(closed.query('SELECT 1'));
    expect((onClosed as Error).message).toMatch(/not queryable/);
    expect(isUnreachable(onClosed)).toBe(true);
  });

  it('does not count an ordinary error', () => {
    expect(isUnreachable(new Error('Cannot read properties of undefined'))).toBe(false);
    expect(isUnreachable(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBe(false);
  });
});
