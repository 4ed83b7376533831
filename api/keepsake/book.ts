import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Writable } from 'node:stream';
import PDFDocument from 'pdfkit';
import { transcriptOf } from '#contract/transcript.ts';
import { printableJpeg } from '../images/index.ts';
import { currentFilm } from '../montage/film.ts';
import { BlobNotFound } from '../storage/index.ts';
import { keepsakeItems, type KeepsakeItem } from './contents.ts';
import { fontRuns, readsRightToLeft, visualRuns, type BookFont } from './fonts.ts';
import { keptTrack, MONTAGE_FILE, type KeepsakeDeps } from './keepsake.ts';

type Doc = PDFKit.PDFDocument;

/** What PDFKit may hold before it waits for the reader: the book streams, whatever the gallery's size. */
const HELD = 4 * 1024 * 1024;
const INK = '#292524';
const MUTED = '#78716c';

/** Selects a font, registering it with the document the first time the book uses it. */
function use(doc: Doc, used: Set<string>, font: BookFont): Doc {
  if (!used.has(font.name)) {
    doc.registerFont(font.name, font.file);
    used.add(font.name);
  }
  return doc.font(font.name);
}

/**
 * Writes text in as many runs as it needs fonts for (decision 092), selectable in the PDF. A
 * paragraph that begins in Hebrew or Arabic is set right to left (decision 113).
 */
function say(
  doc: Doc,
  used: Set<string>,
  text: string,
  size: number,
  color = INK,
  options: PDFKit.Mixins.TextOptions = {},
) {
  if (readsRightToLeft(text)) return sayRightToLeft(doc, used, text, size, color, options.lineGap ?? 0);
  const runs = visualRuns(fontRuns(text));
  doc.fontSize(size).fillColor(color);
  runs.forEach((run, i) => {
    use(doc, used, run.font).text(run.text, { ...options, continued: i < runs.length - 1 });
  });
}

/**
 * A right-to-left paragraph, laid out here (PDFKit has no bidi): words fill each line from the right
 * margin leftwards, each drawn alone on a shared baseline, so fontkit shapes it and the words read in
 * order.
 */
function sayRightToLeft(doc: Doc, used: Set<string>, text: string, size: number, color: string, lineGap: number) {
  doc.fontSize(size).fillColor(color);
  const left = doc.page.margins.left;
  const right = doc.page.width - doc.page.margins.right;
  const words = text
    .split(/\s+/u)
    .filter(Boolean)
    .map((word) => {
      const runs = visualRuns(fontRuns(word));
      const widths = runs.map((run) => use(doc, used, run.font).widthOfString(run.text));
      return { runs, widths, width: widths.reduce((a, b) => a + b, 0) };
    });
  const space = use(doc, used, fontRuns(' ')[0]!.font).widthOfString(' ');
  const lineHeight = size * 1.5 + lineGap;
  let y = doc.y;
  for (let i = 0; i < words.length;) {
    let width = words[i]!.width;
    let end = i + 1;
    while (end < words.length && width + space + words[end]!.width <= right - left)
      width += space + words[end++]!.width;
    if (y + lineHeight > doc.page.height - doc.page.margins.bottom) {
      doc.addPage();
      y = doc.y;
    }
    let x = right;
    for (const word of words.slice(i, end)) {
      x -= word.width;
      let at = x;
      word.runs.forEach((run, k) => {
        use(doc, used, run.font).text(run.text, at, y + size * 1.1, { lineBreak: false, baseline: 'alphabetic' });
        at += word.widths[k]!;
      });
      x -= space;
    }
    y += lineHeight;
    i = end;
  }
  doc.x = left;
  doc.y = y;
}

/** One centred line in several fonts: each run placed by the width of the ones before (the cover). */
function sayCentred(doc: Doc, used: Set<string>, text: string, size: number, color = INK) {
  const runs = visualRuns(fontRuns(text));
  doc.fontSize(size).fillColor(color);
  const widths = runs.map((run) => use(doc, used, run.font).widthOfString(run.text));
  let x = (doc.page.width - widths.reduce((a, b) => a + b, 0)) / 2;
  const y = doc.y;
  runs.forEach((run, i) => {
    doc.font(run.font.name).text(run.text, x, y, { lineBreak: false });
    x += widths[i]!;
  });
  doc.x = doc.page.margins.left;
  doc.y = y + size * 1.6;
}

/**
 * One buffer for every picture of a book, grown to the largest: a picture read whole into a buffer of
 * its own, then copied into another by `Buffer.concat`, left both for the GC, which V8 runs for such
 * memory only after about 64 MB of it; on 100 pictures of 12 MB that was half the book's growth
 * (decision 129). sharp's cache is off (the images adapter), so new bytes at the same address are read.
 */
class PictureBuffer {
  #buffer = Buffer.alloc(0);

  async read(stream: NodeJS.ReadableStream): Promise<Buffer> {
    let length = 0;
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      if (length + chunk.length > this.#buffer.length) {
        const grown = Buffer.allocUnsafeSlow(Math.max(2 * this.#buffer.length, length + chunk.length, 1 << 20));
        this.#buffer.copy(grown, 0, 0, length);
        this.#buffer = grown;
      }
      chunk.copy(this.#buffer, length);
      length += chunk.length;
    }
    return this.#buffer.subarray(0, length);
  }
}

async function picture(deps: KeepsakeDeps, key: string, into: PictureBuffer) {
  try {
    return await printableJpeg(await into.read(await deps.blobs.read(key)));
  } catch (error) {
    if (error instanceof BlobNotFound) return undefined;
    throw error;
  }
}

function placeImage(doc: Doc, image: { buffer: Buffer; width: number; height: number }) {
  const width = doc.page.width - doc.page.margins.left - doc.page.margins.right;
  const scale = Math.min(width / image.width, 420 / image.height, 1.5);
  const h = image.height * scale;
  if (doc.y + h > doc.page.height - doc.page.margins.bottom) doc.addPage();
  doc.image(image.buffer, doc.page.margins.left + (width - image.width * scale) / 2, doc.y, { height: h });
  doc.y += h + 12;
}

const KIND_WORD = { artwork: 'Artwork', story: 'Story', media: 'Media' } as const;

async function itemPages(deps: KeepsakeDeps, doc: Doc, used: Set<string>, item: KeepsakeItem, into: PictureBuffer) {
  doc.addPage();
  say(doc, used, item.title || (item.kind === 'story' ? 'A story' : 'Untitled'), 22);
  const by = item.media
    ? `${item.media.type === 'video' ? 'Video' : 'Audio'} by ${item.artistName}`
    : `${KIND_WORD[item.kind]} by ${item.artistName}`;
  say(doc, used, by, 11, MUTED);
  doc.moveDown(0.8);
  const shown = item.image?.key ?? item.media?.poster?.key;
  const image = shown && (await picture(deps, shown, into));
  if (image) placeImage(doc, image);
  const captions = item.media?.captions && (await keptTrack(deps.blobs, item.media.captions.key));
  const spoken = captions
    ? transcriptOf(captions)
        .map((line) => line.text)
        .join('\n')
    : '';
  if (spoken) {
    say(doc, used, item.media!.type === 'video' ? 'Captions' : 'Transcript', 10, MUTED);
    say(doc, used, spoken, 12, INK, { lineGap: 3 });
    doc.moveDown(0.6);
  }
  if (item.description) {
    say(doc, used, item.description, 12);
    doc.moveDown(0.6);
  }
  if (item.content) {
    say(doc, used, item.content, 12, INK, { lineGap: 3 });
    doc.moveDown(0.6);
  }
  const totals = [`${item.likeCount} ${item.likeCount === 1 ? 'like' : 'likes'}`];
  for (const [emoji, n] of Object.entries(item.reactions)) if (n) totals.push(`${emoji} ${n}`);
  say(doc, used, totals.join('  ·  '), 10, MUTED);
  if (item.comments.length) {
    doc.moveDown(0.8);
    say(doc, used, 'Comments', 13);
    for (const c of item.comments) {
      doc.moveDown(0.3);
      // a comment written right to left is its own paragraph under the name
      if (readsRightToLeft(c.content)) {
        say(doc, used, `${c.authorName}:`, 11);
        say(doc, used, c.content, 11);
      } else say(doc, used, `${c.authorName}: ${c.content}`, 11);
    }
  }
}

/**
 * The keepsake as a printable book (CONTRACT §10, decision 092): a cover with the honoree's name and
 * the date, then every item the gallery shows, a page or more each: its picture (a media item's
 * poster), its title and maker, a media item's captions or transcript, its words, its totals and
 * comments. Written to `out` as it goes.
 */
export async function writeKeepsakeBook(deps: KeepsakeDeps, out: Writable): Promise<void> {
  const doc = new PDFDocument({
    size: 'A4',
    margin: 56,
    autoFirstPage: false,
    info: { Title: `For ${deps.name}`, Creator: 'Tribute Gallery' },
  });
  const failed = new Promise<never>((_, reject) => {
    doc.on('error', reject);
    out.on('error', reject);
  });
  failed.catch(() => undefined);
  const finished = once(out, 'finish');
  doc.pipe(out);
  const used = new Set<string>();

  doc.addPage();
  doc.y = doc.page.height / 3;
  sayCentred(doc, used, `For ${deps.name}`, 40);
  sayCentred(
    doc,
    used,
    deps.clock().toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric' }),
    14,
    MUTED,
  );
  // a book cannot play the film: it says where the zip keeps it (decision 125)
  const film = await currentFilm(deps.pool);
  if (film) {
    const n = film.clips;
    const length = `${Math.floor(film.durationSeconds / 60)} min ${Math.round(film.durationSeconds % 60)} s`;
    doc.moveDown(2);
    sayCentred(
      doc,
      used,
      `With the film of everyone's messages: ${n} video ${n === 1 ? 'message' : 'messages'}, ${length},`,
      11,
      MUTED,
    );
    sayCentred(doc, used, `in the keepsake's zip as ${MONTAGE_FILE}.`, 11, MUTED);
  }

  const pictures = new PictureBuffer();
  for await (const item of keepsakeItems(deps.pool)) {
    await Promise.race([itemPages(deps, doc, used, item, pictures), failed]);
    // the reader sets the pace: PDFKit holds at most a few MB
    while (doc.readableLength > HELD) await Promise.race([once(out, 'drain'), sleep(50), failed]);
  }
  doc.end();
  await Promise.race([finished, failed]);
}
