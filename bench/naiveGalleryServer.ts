import http from 'node:http';
import pg from 'pg';

/**
 * The baseline for GET /api/gallery, done the naive way the first version did in the browser: fetch
 * every approved item, order by id, shuffle with a seed from today's date, then cut out the page.
 */
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 20 });

function seededShuffle<T>(items: T[], seed: number): T[] {
  let s = seed;
  const random = () => (s = (s * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

async function answer(req: http.IncomingMessage, res: http.ServerResponse) {
  const page = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('page') ?? 1);
  const { rows } = await pool.query(
    `SELECT kind, id, title, description, tags, artist_name, like_count, comment_count, created_at
       FROM catalog_items WHERE status = 'approved' AND NOT archived ORDER BY kind, id`,
  );
  const day = Number(new Date().toISOString().slice(0, 10).replaceAll('-', ''));
  const items = seededShuffle(rows, day).slice((page - 1) * 20, page * 20);
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify({ items, total: rows.length, page, pageSize: 20, pageCount: Math.ceil(rows.length / 20) }));
}

http
  // a failed query answers 500, as a server would, instead of ending the process with an unhandled rejection
  .createServer((req, res) => {
    answer(req, res).catch((error: unknown) => {
      res.statusCode = 500;
      res.end(String(error));
    });
  })
  .listen(Number(process.env.PORT), () => console.log('http://ready'));
