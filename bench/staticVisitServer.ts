import http from 'node:http';
import path from 'node:path';
import express from 'express';
import { Server } from 'socket.io';

/**
 * The baseline for a whole visit: the same gallery JSON and card images as static files on this
 * machine (express.static from STATIC_DIR), a login that hands out a fixed token, and a bare
 * socket.io server: no session, no database, no image work.
 */
const dir = process.env.STATIC_DIR!;
const app = express();
app.post('/api/auth/login', (_req, res) => {
  res.json({ success: true, sessionToken: 'static' });
});
app.use(
  express.static(dir, {
    setHeaders: (res, file) => {
      if (path.basename(file) === 'gallery') res.setHeader('Content-Type', 'application/json; charset=utf-8');
    },
  }),
);
const server = http.createServer(app);
new Server(server, { serveClient: false });
server.listen(Number(process.env.PORT), () => console.log('http://ready'));
