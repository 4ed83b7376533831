import { randomUUID } from 'node:crypto';
import { rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { type MediaOptions, probeMedia } from './probe.ts';
import { DEMUXER, sniffMediaFile } from './sniff.ts';
import { deadline, fileUrl, inputArgs, runTool } from './tools.ts';

export const POSTER_WIDTH = 640;
/** Transcodes are fitted inside this box: plenty for a gallery, and bounded work per upload. */
export const TRANSCODE_MAX_EDGE = 1920;
export const DEFAULT_POSTER_TIMEOUT_MS = 30_000;
export const DEFAULT_TRANSCODE_TIMEOUT_MS = 20 * 60_000;

const FFMPEG_START = ['-nostdin', '-hide_banner', '-v', 'error', '-n'];

/** A JPEG still at about 1 s (0 for clips under 2 s), at most 640 px wide, upright, even height. */
export async function makePoster(input: string, outPath: string, opts: MediaOptions = {}): Promise<void> {
  const remaining = deadline(opts.timeoutMs ?? DEFAULT_POSTER_TIMEOUT_MS);
  const media = await probeMedia(input, { ...opts, timeoutMs: remaining() });
  if (media.kind !== 'video') throw new Error('A poster needs a video stream');
  const run = opts.run ?? runTool;
  const demuxer = DEMUXER[media.container];
  await writeAtomically(outPath, async (partial) => {
    // A video track can end before the audio; if nothing was decoded at 1 s, take the first frame.
    for (const at of media.durationSeconds >= 2 ? [1, 0] : [0]) {
      await run({
        tool: 'ffmpeg',
        args: [
          ...FFMPEG_START,
          ...['-ss', String(at)],
          ...inputArgs(input, demuxer),
          ...['-map', '0:v:0', '-frames:v', '1', '-an', '-sn', '-dn'],
          ...['-vf', `scale='min(${POSTER_WIDTH},iw)':-2`],
          ...['-c:v', 'mjpeg', '-q:v', '3', '-f', 'image2', '-update', '1', fileUrl(partial)],
        ],
        timeoutMs: remaining(),
        signal: opts.signal,
      });
      if ((await sizeOf(partial)) > 0) return;
      await rm(partial, { force: true });
    }
    throw new Error('No frame could be decoded for the poster');
  });
}

/**
 * MP4 that every browser plays: H.264 (yuv420p, even dimensions, at most 1920 px) and AAC, with the
 * index at the front (+faststart) so playback starts before the download ends. Location and other
 * metadata are dropped. Idempotent: a rerun replaces outPath, and a killed run leaves no outPath.
 */
export async function transcodeToMp4(input: string, outPath: string, opts: MediaOptions = {}): Promise<void> {
  const remaining = deadline(opts.timeoutMs ?? DEFAULT_TRANSCODE_TIMEOUT_MS);
  const { container } = await sniffMediaFile(input);
  const fit = `scale='min(${TRANSCODE_MAX_EDGE},iw)':'min(${TRANSCODE_MAX_EDGE},ih)':force_original_aspect_ratio=decrease`;
  await convertInto(input, container, outPath, opts, remaining(), (url) => [
    ...['-map', '0:v:0', '-map', '0:a:0?', '-map_metadata', '-1', '-map_chapters', '-1'],
    ...['-vf', `${fit},scale=trunc(iw/2)*2:trunc(ih/2)*2,format=yuv420p`],
    ...['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '23', '-profile:v', 'high'],
    ...['-c:a', 'aac', '-b:a', '160k', '-ac', '2'],
    // Old ffmpeg builds give up on interleaving sparse AVI audio without a deeper queue.
    ...['-max_muxing_queue_size', '1024'],
    ...['-movflags', '+faststart', '-f', 'mp4', url],
  ]);
}

/**
 * Audio that browsers may not play (Opus in MP4, as Chromium records it; other WAV codecs): AAC in an
 * M4A, without the upload's metadata. Idempotent and atomic as transcodeToMp4.
 */
export async function transcodeToM4a(input: string, outPath: string, opts: MediaOptions = {}): Promise<void> {
  const remaining = deadline(opts.timeoutMs ?? DEFAULT_TRANSCODE_TIMEOUT_MS);
  const { container } = await sniffMediaFile(input);
  await convertInto(input, container, outPath, opts, remaining(), (url) => [
    ...['-map', '0:a:0', '-vn', '-map_metadata', '-1', '-map_chapters', '-1'],
    ...['-c:a', 'aac', '-b:a', '160k', '-ac', '2'],
    ...['-movflags', '+faststart', '-f', 'ipod', url],
  ]);
}

const CLEAN_FORMAT = { mp4: 'mp4', m4a: 'mp4', mp3: 'mp3', wav: 'wav' } as const;

/**
 * The same audio and video, copied without re-encoding, and none of the upload's metadata: no title,
 * no location, no chapters, no cover picture. For files browsers already play (MP4, M4A, MP3, WAV);
 * the rest are transcoded, which drops metadata too.
 */
export async function removeMetadata(
  input: string,
  outPath: string,
  kind: 'video' | 'audio',
  opts: MediaOptions = {},
): Promise<void> {
  const { container } = await sniffMediaFile(input);
  if (!(container in CLEAN_FORMAT)) throw new Error(`No metadata-free copy for ${container}; transcode it`);
  const format = CLEAN_FORMAT[container as keyof typeof CLEAN_FORMAT];
  const streams = kind === 'video' ? ['-map', '0:v:0', '-map', '0:a:0?'] : ['-map', '0:a:0'];
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TRANSCODE_TIMEOUT_MS;
  await convertInto(input, container, outPath, opts, timeoutMs, (url) => [
    ...streams,
    ...['-c', 'copy', '-map_metadata', '-1', '-map_metadata:s:v', '-1', '-map_metadata:s:a', '-1'],
    ...['-map_chapters', '-1', '-fflags', '+bitexact', '-flags:v', '+bitexact', '-flags:a', '+bitexact'],
    ...(format === 'mp4' ? ['-movflags', '+faststart'] : []),
    ...(format === 'mp3' ? ['-id3v2_version', '0'] : []),
    ...['-f', format, url],
  ]);
}

/** One ffmpeg run over `input` (read with its container's demuxer) into `outPath`, written atomically. */
async function convertInto(
  input: string,
  container: keyof typeof DEMUXER,
  outPath: string,
  opts: MediaOptions,
  timeoutMs: number,
  outputArgs: (url: string) => string[],
): Promise<void> {
  const run = opts.run ?? runTool;
  await writeAtomically(outPath, async (partial) => {
    await run({
      tool: 'ffmpeg',
      args: [...FFMPEG_START, ...inputArgs(input, DEMUXER[container]), ...outputArgs(fileUrl(partial))],
      timeoutMs,
      signal: opts.signal,
    });
  });
}

/** Work goes to a hidden sibling file that is renamed over outPath only once complete. */
async function writeAtomically(outPath: string, write: (partial: string) => Promise<void>): Promise<void> {
  const partial = path.join(path.dirname(outPath), `.${path.basename(outPath)}.${randomUUID()}.partial`);
  try {
    await write(partial);
    await rename(partial, outPath);
  } catch (err) {
    await rm(partial, { force: true });
    throw err;
  }
}

async function sizeOf(file: string): Promise<number> {
  try {
    return (await stat(file)).size;
  } catch {
    return 0;
  }
}
