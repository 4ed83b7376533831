import http from 'node:http';

/**
 * The physical limit for GET /api/gallery on this stack: a bare Node HTTP server that answers with
 * the same JSON bytes, held in memory, that the app sent for each page. It reads them as NDJSON lines
 * `{"page":N,"body":"…"}` on stdin, then listens.
 */
const pages = new Map<string, Buffer>();
let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk: string) => (input += chunk));
process.stdin.on('end', () => {
  for (const line of input.split('\n')) {
    if (!line) continue;
    const { page, body } = JSON.parse(line) as { page: number; body: string };
    pages.set(String(page), Buffer.from(body));
  }
  http
    .createServer((req, res) => {
      const page = new URL(req.url ?? '/', 'http://x').searchParams.get('page') ?? '1';
      const body = pages.get(page);
      if (!body) {
        res.statusCode = 404;
        res.end();
        return;
      }
      res.setHeader('content-type', 'application/json; charset=utf-8');
      res.end(body);
    })
    .listen(Number(process.env.PORT), () => console.log('http://ready'));
});
