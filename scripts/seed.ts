import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '#api/config.ts';
import { startServer } from '#api/server.ts';
import { placeholderJpeg } from '#api/images/index.ts';
import { runTool } from '#api/video/index.ts';
import { runCommand, UsageError } from './cli.ts';

const usage = `usage: npm run seed -- [--artworks N] [--stories N] [--media N] [--likes N] [--comments N] [--pending N]

  Demo or benchmark data, sent as ordinary HTTP calls to this program's own API (started here on a
  loopback port, beside any running server on the same database): guests submit, an admin approves.
  --artworks N   drawings and photos (default 12)
  --stories N    stories (default 0)
  --media N      short videos and audio clips made with ffmpeg (default 0)
  --likes N      likes, spread over the approved items, each by its own visitor (default 0)
  --comments N   comments, spread over the approved items (default 0)
  --pending N    of each kind, how many stay waiting in the admin queue (default 2)`;

const ARTISTS = ['Sam Rivera', 'Priya Shah', 'Jordan Lee', 'Maria Rossi', 'Chen Wei', 'Ama Mensah', 'Lena Vogel'];
const TITLES = ['Sunrise at the office', 'Our team', 'The big deal', 'Coffee run', 'Skyline', 'Open house', 'Keys'];
const COLORS = ['#e07a5f', '#3d405b', '#81b29a', '#f2cc8f', '#8ecae6', '#ffb703', '#b5838d'];
const MEMORIES = [
  'The first day, you showed me where the good coffee was hidden.',
  'You stayed late to help me finish the launch, and never mentioned it again.',
  'Every Friday started with your terrible puns. We will miss them.',
];

function count(values: Record<string, string | boolean | undefined>, name: string): number {
  const n = Number(values[name]);
  if (!Number.isInteger(n) || n < 0) throw new UsageError(`--${name} must be a whole number, 0 or more`);
  return n;
}

type Kind = 'artworks' | 'stories' | 'media';

await runCommand(usage, async (args) => {
  let values;
  try {
    ({ values } = parseArgs({
      args,
      options: {
        artworks: { type: 'string', default: '12' },
        stories: { type: 'string', default: '0' },
        media: { type: 'string', default: '0' },
        likes: { type: 'string', default: '0' },
        comments: { type: 'string', default: '0' },
        pending: { type: 'string', default: '2' },
      },
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const wanted = {
    artworks: count(values, 'artworks'),
    stories: count(values, 'stories'),
    media: count(values, 'media'),
  };
  const likes = count(values, 'likes');
  const comments = count(values, 'comments');
  const pending = count(values, 'pending');

  // Every seeded visitor gets an address of its own (198.18.0.0/15 is for benchmarks), so the
  // per-address limits treat them as the different people they stand for.
  const base = loadConfig();
  const config = { ...base, port: 0, trustProxy: ['loopback'] };
  const server = await startServer(config, 'all');
  const url = `http://127.0.0.1:${server.port}`;
  let visitors = 0;
  const call = async (method: string, route: string, token: string | undefined, body?: unknown, form?: FormData) => {
    visitors++;
    const res = await fetch(`${url}${route}`, {
      method,
      headers: {
        'x-forwarded-for': `198.18.${(visitors >> 8) & 255}.${visitors & 255}`,
        ...(token ? { 'x-session-token': token } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      body: form ?? (body === undefined ? undefined : JSON.stringify(body)),
    });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${method} ${route} answered ${res.status}: ${text.slice(0, 300)}`);
    return text ? JSON.parse(text) : undefined;
  };
  const login = async (password: string) =>
    ((await call('POST', '/api/auth/login', undefined, { password })) as { sessionToken: string }).sessionToken;

  try {
    // a new guest (visitor) every 20 writes, under the per-visitor write limits
    let guestToken = '';
    let guestWrites = 0;
    const guest = async () => {
      if (!guestToken || guestWrites >= 20) {
        guestToken = await login(config.galleryPassword);
        guestWrites = 0;
      }
      guestWrites++;
      return guestToken;
    };
    const admin = await login(config.adminPassword);
    const approved: { kind: Kind; id: number }[] = [];
    const made = async (kind: Kind, i: number, submit: () => Promise<{ id: number }>) => {
      const { id } = await submit();
      if (i >= Math.min(pending, wanted[kind])) {
        await call('PATCH', `/api/admin/${kind}/${id}`, admin, { status: 'approved' });
        approved.push({ kind, id });
      }
    };

    for (let i = 0; i < wanted.artworks; i++) {
      const image = await placeholderJpeg(
        800,
        600,
        COLORS[i % COLORS.length]!,
        `<svg width="800" height="600"><circle cx="${200 + ((i * 97) % 400)}" cy="300" r="${80 + (i % 5) * 20}" fill="#fff" fill-opacity="0.6"/></svg>`,
      );
      await made('artworks', i, async () =>
        call('POST', '/api/artworks', await guest(), {
          title: `${TITLES[i % TITLES.length]} #${i + 1}`,
          description: 'Seeded for the demo.',
          imageData: `data:image/jpeg;base64,${image.toString('base64')}`,
          artistName: ARTISTS[i % ARTISTS.length],
          email: `seed${i + 1}@example.com`,
          isFromCanvas: 'false',
        }),
      );
    }

    for (let i = 0; i < wanted.stories; i++) {
      await made('stories', i, async () =>
        call('POST', '/api/stories', await guest(), {
          title: `A memory #${i + 1}`,
          content: MEMORIES[i % MEMORIES.length],
          authorName: ARTISTS[(i + 3) % ARTISTS.length],
          email: `story${i + 1}@example.com`,
          isAnonymous: i % 4 === 3,
        }),
      );
    }

    if (wanted.media > 0) {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tribute-seed-'));
      try {
        const clips = await makeClips(dir);
        for (let i = 0; i < wanted.media; i++) {
          const video = i % 2 === 0;
          const file = video ? clips.video : clips.audio;
          const mimeType = video ? 'video/mp4' : 'audio/mpeg';
          const form = new FormData();
          form.append('file', new Blob([fs.readFileSync(file)], { type: mimeType }), path.basename(file));
          // the same visitor uploads and then claims the upload
          const uploader = await guest();
          const upload = (await call('POST', '/api/upload-direct', uploader, undefined, form)) as { path: string };
          await made('media', i, () =>
            call('POST', '/api/media', uploader, {
              title: `${video ? 'Clip' : 'Song'} #${i + 1}`,
              description: 'Seeded for the demo.',
              artistName: ARTISTS[(i + 5) % ARTISTS.length],
              email: `media${i + 1}@example.com`,
              mediaType: video ? 'video' : 'audio',
              mediaData: upload.path,
              mimeType,
            }),
          );
        }
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    }

    if ((likes || comments) && !approved.length) throw new UsageError('likes and comments need an approved item');
    // one visitor likes each item at most once: a new visitor for every round over the items
    let liker = '';
    for (let i = 0; i < likes; i++) {
      // a new visitor for each round over the items, and well before the 120-a-minute like limit
      if (i % approved.length === 0 || i % 100 === 0) liker = await login(config.galleryPassword);
      const item = approved[i % approved.length]!;
      await call('POST', `/api/${item.kind}/${item.id}/likes`, liker);
    }
    for (let i = 0; i < comments; i++) {
      const item = approved[i % approved.length]!;
      await call('POST', `/api/${item.kind}/${item.id}/comments`, await guest(), {
        authorName: ARTISTS[i % ARTISTS.length],
        content: `${MEMORIES[i % MEMORIES.length]} (${i + 1})`,
      });
    }
    await server.runner?.wake();
    const summary = Object.entries(wanted)
      .map(([kind, n]) => `${n} ${kind}`)
      .join(', ');
    console.log(`seeded ${summary} (${approved.length} approved), ${likes} likes, ${comments} comments`);
    return 0;
  } finally {
    await server.close();
  }
});

/** A 2-second test-pattern video and a 2-second tone, made with the ffmpeg the media jobs use. */
async function makeClips(dir: string) {
  const video = path.join(dir, 'seed.mp4');
  const audio = path.join(dir, 'seed.mp3');
  const quiet = ['-nostdin', '-hide_banner', '-v', 'error', '-y'];
  await runTool({
    tool: 'ffmpeg',
    timeoutMs: 60_000,
    args: [...quiet, '-f', 'lavfi', '-i', 'testsrc2=size=640x360:rate=25:duration=2', '-pix_fmt', 'yuv420p', video],
  });
  await runTool({
    tool: 'ffmpeg',
    timeoutMs: 60_000,
    args: [...quiet, '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=44100:duration=2', audio],
  });
  return { video, audio };
}
