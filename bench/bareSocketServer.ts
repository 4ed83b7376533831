import http from 'node:http';
import { Server } from 'socket.io';

/** The baseline for live fan-out: socket.io alone, no database, no adapter; POST /emit broadcasts. */
const server = http.createServer((req, res) => {
  if (req.method === 'POST' && req.url === '/emit') {
    io.emit('likes:changed', { position: Date.now(), kind: 'story', id: 1, likeCount: 1 });
    res.end('ok');
    return;
  }
  res.statusCode = 404;
  res.end();
});
const io = new Server(server, { serveClient: false });
server.listen(Number(process.env.PORT), () => console.log('http://ready'));
