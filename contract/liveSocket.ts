/** How a client opens the live connection; contract/live.ts holds what travels on it. Names are socket.io-client's. */
export interface LiveSocketOptions {
  transports: Array<'websocket' | 'polling'>;
  tryAllTransports: boolean;
  withCredentials: boolean;
}

/**
 * How the web app, and the tests that stand in for it, open the live connection (decision 053).
 * WebSocket first: one TCP connection, so the usual path needs no affinity behind the proxy that
 * spreads requests over several API processes. Where a WebSocket cannot open (a proxy or firewall on
 * the way), `tryAllTransports` falls back to HTTP long-polling, whose many requests must all reach the
 * process that holds the session: the proxy keeps them there by its affinity cookie, hence the
 * cookies sent along (the session's and the proxy's).
 */
export const LIVE_SOCKET_OPTIONS: Readonly<LiveSocketOptions> = {
  transports: ['websocket', 'polling'],
  tryAllTransports: true,
  withCredentials: true,
};
