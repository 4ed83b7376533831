import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { artworkStream } from '#events/artworks/artwork.ts';
import { artworkDecider } from '#events/artworks/decide.ts';
import { handleCommand } from '#events/handle.ts';
import { loadConfig } from '#api/config.ts';
import { submitArtwork } from '#api/artworks/submitArtwork.ts';
import { startServer } from '#api/server.ts';

const { values } = parseArgs({
  options: {
    artworks: { type: 'string', default: '12' },
    stories: { type: 'string', default: '0' },
    media: { type: 'string', default: '0' },
    likes: { type: 'string', default: '0' },
    comments: { type: 'string', default: '0' },
    pending: { type: 'string', default: '2' },
  },
});
for (const later of ['stories', 'media', 'likes', 'comments'] as const) {
  if (Number(values[later]) > 0)
    console.warn(`--${later}: not seeded yet (arrives with stories, media, likes and comments)`);
}

const ARTISTS = ['Sam Rivera', 'Priya Shah', 'Jordan Lee', 'Maria Rossi', 'Chen Wei', 'Ama Mensah', 'Lena Vogel'];
const TITLES = ['Sunrise at the office', 'Our team', 'The big deal', 'Coffee run', 'Skyline', 'Open house', 'Keys'];
const COLORS = ['#e07a5f', '#3d405b', '#81b29a', '#f2cc8f', '#8ecae6', '#ffb703', '#b5838d'];

const total = Number(values.artworks);
const pending = Math.min(Number(values.pending), total);
const server = await startServer(loadConfig(), 'worker');
const { deps } = server;
const now = () => new Date().toISOString();

for (let i = 0; i < total; i++) {
  const color = COLORS[i % COLORS.length]!;
  const image = await sharp({ create: { width: 800, height: 600, channels: 3, background: color } })
    .composite([
      {
        input: Buffer.from(
          `<svg width="800" height="600"><circle cx="${200 + ((i * 97) % 400)}" cy="300" r="${80 + (i % 5) * 20}" fill="#fff" fill-opacity="0.6"/></svg>`,
        ),
      },
    ])
    .jpeg()
    .toBuffer();
  const { artworkId: id } = await submitArtwork(
    deps,
    {
      title: `${TITLES[i % TITLES.length]} #${i + 1}`,
      description: 'Seeded for the demo.',
      tags: null,
      imageData: `data:image/jpeg;base64,${image.toString('base64')}`,
      artistName: ARTISTS[i % ARTISTS.length]!,
      email: `seed${i + 1}@example.com`,
      isFromCanvas: false,
    },
    { role: 'system', now: now() },
  );
  if (i >= pending) {
    const metadata = { role: 'admin' as const, now: now() };
    const review = {
      type: 'ReviewArtwork' as const,
      data: { status: 'approved' as const, adminNotes: null },
      now: metadata.now,
    };
    await handleCommand(deps.store, artworkStream(id), artworkDecider, review, metadata);
  }
}
await server.runner?.wake();
console.log(`seeded ${total} artworks (${total - pending} approved, ${pending} pending)`);
await server.close();
