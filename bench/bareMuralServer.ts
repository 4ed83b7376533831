import http from 'node:http';
import { Server } from 'socket.io';

/** The mural's baseline: socket.io alone, no database; POST /stroke broadcasts the stroke it was given. */
let nextId = 1;
const server = http.createServer((req, res) => {
  if (req.method !== 'POST' || req.url !== '/stroke') {
    res.statusCode = 404;
    res.end();
    return;
  }
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const stroke = { ...JSON.parse(Buffer.concat(chunks).toString()), id: nextId++ };
    io.emit('mural:stroke-added', { position: stroke.id, after: stroke.id - 1, stroke });
    res.statusCode = 201;
    res.end(JSON.stringify(stroke));
  });
});
const io = new Server(server, { serveClient: false });
server.listen(Number(process.env.PORT), () => console.log('http://ready'));
