import type { StrokeRecording } from '../../contract/strokes.ts';
import { strokesDuration } from '../../contract/strokes.ts';
import { drawRecording, replaySpeed } from '../src/drawing/replay.ts';
import { clockOf, transcriptOf } from '../../contract/transcript.ts';
import { checkLog } from './verifyLog.ts';

/**
 * The keepsake's pages (CONTRACT §10), opened from disk with no server: `index.html` shows the gallery
 * from `data.js` (written by api/keepsake), `verify.html` checks `log.js` (the same lines as
 * `log.ndjson`) or a log file the reader picks. Classic scripts only: file:// loads no modules.
 */
interface Item {
  kind: 'artwork' | 'story' | 'media';
  id: number;
  title: string | null;
  description: string | null;
  content: string | null;
  artistName: string;
  isFromCanvas: boolean;
  approvedAt: string | null;
  likeCount: number;
  reactions: Record<string, number>;
  comments: Array<{ id: number; authorName: string; content: string; createdAt: string }>;
  image?: { file: string; width: number; height: number; altText?: string | null };
  strokes?: string;
  media?: {
    file: string;
    type: 'video' | 'audio';
    mimeType: string;
    poster?: { file: string };
    /** the WebVTT track, inline: a video's captions, an audio message's transcript */
    captions?: { file: string; vtt: string };
  };
}
/** The film of everyone's video messages, when one was ready (decision 125). */
interface Montage {
  file: string;
  clips: number;
  duration: number;
}
declare global {
  interface Window {
    KEEPSAKE?: { name: string; madeAt: string; montage?: Montage | null; items: Item[] };
    KEEPSAKE_STROKES?: Record<number, StrokeRecording>;
    KEEPSAKE_LOG?: string[];
  }
}

function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className = '',
  text?: string | null,
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text != null) node.textContent = text;
  return node;
}

function loadScript(src: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const s = el('script');
    s.src = src;
    s.onload = () => resolve();
    s.onerror = () => reject(new Error(`${src} did not load`));
    document.head.append(s);
  });
}

/** A drawing replayed stroke by stroke, by the same painter the gallery and the server use. */
async function replay(item: Item, canvas: HTMLCanvasElement, status: HTMLElement) {
  if (!window.KEEPSAKE_STROKES?.[item.id]) await loadScript(item.strokes!);
  const recording = window.KEEPSAKE_STROKES![item.id]!;
  canvas.width = recording.width;
  canvas.height = recording.height;
  canvas.hidden = false;
  const ctx = canvas.getContext('2d')!;
  const total = strokesDuration(recording);
  const speed = replaySpeed(recording);
  const start = performance.now();
  status.textContent = 'Replaying…';
  await new Promise<void>((done) => {
    const frame = (now: number) => {
      const at = Math.min(total, (now - start) * speed);
      drawRecording(ctx, recording, at);
      if (at < total) requestAnimationFrame(frame);
      else done();
    };
    requestAnimationFrame(frame);
  });
  status.textContent = 'Replayed';
  canvas.dataset.replayed = 'true';
}

/**
 * The item's WebVTT track, given to the player from memory: a `<track>` whose file is beside the page
 * is refused by Chromium from file:// as cross-origin, one from a blob: URL is not (decision 128). A
 * video shows its captions from the start. Its words are also written out under the player, as the
 * gallery's Transcript does (decision 130): open under an audio message, folded under a video.
 */
function withTrack(player: HTMLMediaElement, vtt: string, article: HTMLElement) {
  const track = el('track');
  track.kind = 'captions';
  track.label = 'Captions';
  track.src = URL.createObjectURL(new Blob([vtt], { type: 'text/vtt' }));
  track.default = player instanceof HTMLVideoElement;
  player.append(track);
  const lines = transcriptOf(vtt);
  if (lines.length === 0) return;
  const details = el(
    'details',
    'group mx-4 mt-3 rounded-xl border border-stone-200 bg-white/80 text-left text-stone-800 dark:border-stone-700 dark:bg-stone-900/80 dark:text-stone-100',
  );
  details.open = player instanceof HTMLAudioElement;
  const summary = el(
    'summary',
    'flex cursor-pointer items-center gap-2 rounded-xl px-4 py-3 font-semibold select-none hover:bg-amber-50 focus-visible:outline-2 focus-visible:outline-amber-500 dark:hover:bg-stone-800',
  );
  const marker = el('span', 'transition-transform group-open:rotate-90', '▸');
  marker.setAttribute('aria-hidden', 'true');
  summary.append(marker, el('span', '', 'Transcript'));
  const body = el('div', 'space-y-2 border-t border-stone-200 px-4 py-3 leading-relaxed dark:border-stone-700');
  for (const line of lines) {
    const p = el('p', 'flex gap-3');
    p.append(
      el('span', 'shrink-0 pt-0.5 text-sm text-stone-600 tabular-nums dark:text-stone-400', clockOf(line.start)),
      el('span', 'break-words', line.text),
    );
    body.append(p);
  }
  details.append(summary, body);
  article.append(details);
}

function card(item: Item): HTMLElement {
  const article = el('article', 'card flex w-full flex-col overflow-hidden');
  article.dataset.kind = item.kind;
  article.dataset.id = String(item.id);
  if (item.image) {
    const box = el('div', 'relative bg-amber-100 dark:bg-stone-800');
    const img = el('img', 'w-full h-auto');
    img.src = item.image.file;
    img.alt = item.image.altText || item.title || `Artwork by ${item.artistName}`;
    img.width = item.image.width;
    img.height = item.image.height;
    box.append(img);
    if (item.strokes) {
      const canvas = el('canvas', 'absolute inset-0 h-full w-full');
      canvas.hidden = true;
      canvas.setAttribute('aria-label', 'Drawing replay');
      const status = el('span', 'sr-only');
      status.setAttribute('role', 'status');
      const button = el('button', 'btn-secondary m-2', 'Replay the drawing');
      button.type = 'button';
      button.onclick = () => void replay(item, canvas, status);
      box.append(canvas);
      article.append(box, button, status);
    } else article.append(box);
  }
  if (item.media) {
    const player = el(item.media.type === 'video' ? 'video' : 'audio', 'w-full');
    player.controls = true;
    player.preload = 'metadata';
    if (item.media.poster && player instanceof HTMLVideoElement) player.poster = item.media.poster.file;
    const source = el('source');
    source.src = item.media.file;
    source.type = item.media.mimeType;
    player.append(source);
    article.append(player);
    if (item.media.captions) withTrack(player, item.media.captions.vtt, article);
  }
  const body = el('div', 'p-4');
  body.append(
    el(
      'h2',
      'font-display text-lg font-semibold text-stone-900 dark:text-amber-50',
      item.title || (item.kind === 'story' ? 'A story' : 'Untitled'),
    ),
  );
  body.append(el('p', 'mt-0.5 text-sm text-stone-500 dark:text-stone-400', `By ${item.artistName}`));
  if (item.description) body.append(el('p', 'mt-2 text-stone-700 dark:text-stone-300', item.description));
  if (item.content) body.append(el('p', 'mt-2 whitespace-pre-line text-stone-800 dark:text-stone-200', item.content));
  const totals = [`${item.likeCount} ${item.likeCount === 1 ? 'like' : 'likes'}`];
  for (const [emoji, n] of Object.entries(item.reactions ?? {})) if (n) totals.push(`${emoji} ${n}`);
  body.append(el('p', 'mt-3 text-sm text-stone-500 dark:text-stone-400', totals.join(' · ')));
  if (item.comments.length) {
    const list = el('ul', 'mt-3 space-y-2');
    list.setAttribute('aria-label', 'Comments');
    for (const c of item.comments) {
      const li = el('li', 'rounded-lg bg-amber-50 p-2 text-sm dark:bg-stone-800');
      li.append(el('strong', '', c.authorName), document.createTextNode(`: ${c.content}`));
      list.append(li);
    }
    body.append(list);
  }
  article.append(body);
  return article;
}

const messages = (n: number) => `${n} video ${n === 1 ? 'message' : 'messages'}`;
const minutes = (seconds: number) => `${Math.floor(seconds / 60)} min ${Math.round(seconds % 60)} s`;

/** The montage above the gallery, as the admin page shows it: a video that plays from the disk. */
function montageSection(montage: Montage): HTMLElement {
  const section = el('section', 'card mx-auto mb-8 max-w-6xl p-5 sm:p-6');
  section.setAttribute('aria-labelledby', 'montage-heading');
  const heading = el('h2', 'font-display text-2xl font-semibold', "The film of everyone's messages");
  heading.id = 'montage-heading';
  const about = el(
    'p',
    'mt-1 text-sm text-stone-600 dark:text-stone-400',
    `${messages(montage.clips)}, ${minutes(montage.duration)}.`,
  );
  const player = el('video', 'mt-4 max-h-[70vh] w-full rounded-xl bg-black');
  player.controls = true;
  player.preload = 'metadata';
  player.setAttribute('aria-label', 'The montage');
  const source = el('source');
  source.src = montage.file;
  source.type = 'video/mp4';
  player.append(source);
  section.append(heading, about, player);
  return section;
}

function showGallery() {
  const data = window.KEEPSAKE!;
  const main = document.getElementById('gallery')!;
  document.title = `For ${data.name}`;
  document.getElementById('title')!.textContent = `For ${data.name}`;
  document.getElementById('made')!.textContent =
    `${data.items.length} pieces, kept on ${new Date(data.madeAt).toLocaleDateString()}`;
  if (data.montage) {
    const wrap = el('div', 'px-4');
    wrap.append(montageSection(data.montage));
    main.before(wrap);
  }
  for (const item of data.items) main.append(card(item));
}

async function showVerify() {
  const out = document.getElementById('result')!;
  const keyForm = document.getElementById('key-form') as HTMLFormElement;
  const keyInput = document.getElementById('key') as HTMLInputElement;
  let last: { lines: string[]; from: string } | undefined;
  const show = async (lines: string[], from: string) => {
    last = { lines, from };
    out.textContent = `Checking ${from}…`;
    const key = keyInput.value || undefined;
    const result = await checkLog(lines, (n) => (out.textContent = `Checking ${from}: ${n} events…`), key);
    out.dataset.ok = String(result.ok);
    // a log sealed under LOG_HMAC_KEY: only the key's holder can check it, so the page asks for it
    keyForm.hidden = !(key || (!result.ok && result.needsKey));
    out.textContent = result.ok
      ? `Verified ${result.checked} events of ${from}. Head: seq ${result.head?.seq ?? 0}, hash ${result.head?.hash ?? 'none'}`
      : result.needsKey
        ? `${result.checked} events verified; from seq ${result.firstBadSeq} on, ${result.reason}.`
        : `The log does not verify: seq ${result.firstBadSeq} breaks (${result.reason}); ${result.checked} events verified before it`;
  };
  keyForm.onsubmit = async (event) => {
    event.preventDefault();
    if (last) await show(last.lines, last.from);
  };
  const picker = document.getElementById('file') as HTMLInputElement;
  picker.onchange = async () => {
    const file = picker.files?.[0];
    if (file) await show((await file.text()).replace(/\n$/, '').split('\n'), file.name);
  };
  if (window.KEEPSAKE_LOG) await show(window.KEEPSAKE_LOG, 'log.ndjson');
}

if (document.body.dataset.page === 'verify') void showVerify();
else showGallery();
