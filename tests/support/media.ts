import { createHash, randomBytes } from 'node:crypto';
import { copyFile, mkdtemp, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import { mediaToolPaths, runTool } from '#api/video/index.ts';

export type TestMediaName = 'mp4' | 'mov' | 'avi' | 'mp3' | 'wav' | 'm4a' | 'hls' | 'concat' | 'truncated' | 'text';

let made: Promise<Record<TestMediaName, string>> | undefined;
let madeIn: string | undefined;

/**
 * Real media made with the same ffmpeg the adapter uses (3 s of test pattern and a 440 Hz tone), plus
 * hostile files that must never reach a demuxer. Each test file gets them in a temp directory of its
 * own; what ffmpeg makes is made once per run and copied from the run's cache (cachedFfmpeg).
 */
export function makeTestMedia(): Promise<Record<TestMediaName, string>> {
  made ??= generate();
  return made;
}

/** For afterAll: vitest workers do not reliably see process 'exit', so cleanup is explicit. */
export async function removeTestMedia(): Promise<void> {
  const dir = madeIn;
  made = madeIn = undefined;
  if (dir) await rm(dir, { recursive: true, force: true });
}

/**
 * `out`, as `ffmpeg … args out` makes it, made once per run: every fixture cost 1-3 s of CPU, and
 * about twenty files of two workers made the same ones (docs/test-times.md). The run's cache
 * (mediaGlobalSetup.ts) keeps each under a digest of the ffmpeg binary and its arguments; a test
 * file gets a copy of its own, so nothing a test does to its file reaches another. Two workers
 * making the same fixture at once each write a temp file and rename it into place: the rename is
 * atomic, so a reader sees one whole file or none, never a half-written one. With no run cache (a
 * file run outside these projects), ffmpeg writes `out` itself, as before.
 */
export async function cachedFfmpeg(args: string[], out: string, timeoutMs: number): Promise<string> {
  const make = (to: string) =>
    runTool({ tool: 'ffmpeg', args: ['-nostdin', '-hide_banner', '-v', 'error', '-y', ...args, to], timeoutMs });
  const cacheDir = inject('mediaCacheDir');
  if (!cacheDir) {
    await make(out);
    return out;
  }
  const { ffmpeg } = await mediaToolPaths();
  const key = createHash('sha256')
    .update(JSON.stringify([ffmpeg, args]))
    .digest('hex')
    .slice(0, 32);
  const ext = path.extname(out);
  const cached = path.join(cacheDir, `${key}${ext}`);
  if (!(await exists(cached))) {
    const partial = path.join(cacheDir, `${key}.${process.pid}-${randomBytes(4).toString('hex')}.partial${ext}`);
    try {
      await make(partial);
      await rename(partial, cached);
    } finally {
      await rm(partial, { force: true });
    }
  }
  await copyFile(cached, out);
  return out;
}

const exists = (file: string) =>
  stat(file).then(
    () => true,
    () => false,
  );

const SECONDS = 3;
const PATTERN = ['-f', 'lavfi', '-i', `testsrc2=size=960x540:rate=25:duration=${SECONDS}`];
/** 321x241, odd on purpose: the transcode must still give even dimensions (testsrc2 itself rounds). */
const ODD_PATTERN = ['-f', 'lavfi', '-i', `testsrc2=size=320x240:rate=25:duration=${SECONDS},scale=321:241`];
const TONE = ['-f', 'lavfi', '-i', `sine=frequency=440:sample_rate=44100:duration=${SECONDS}`];

async function generate(): Promise<Record<TestMediaName, string>> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'tribute-media-'));
  madeIn = dir;
  const file = (name: string) => path.join(dir, name);
  const ffmpeg = (args: string[], out: string) => cachedFfmpeg(args, out, 60_000);

  const h264 = ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'];
  const [mp4, mov, avi, mp3, wav, m4a] = await Promise.all([
    // No +faststart: the moov atom comes last, which the truncated file below relies on.
    ffmpeg([...PATTERN, ...TONE, ...h264, '-c:a', 'aac', '-shortest', '-f', 'mp4'], file('pattern.mp4')),
    ffmpeg(
      [...ODD_PATTERN, ...TONE, '-c:v', 'mjpeg', '-q:v', '5', '-c:a', 'pcm_s16le', '-shortest', '-f', 'mov'],
      file('pattern.mov'),
    ),
    ffmpeg(
      [...PATTERN, ...TONE, '-c:v', 'mpeg4', '-q:v', '5', '-c:a', 'libmp3lame', '-shortest', '-f', 'avi'],
      file('pattern.avi'),
    ),
    ffmpeg([...TONE, '-c:a', 'libmp3lame', '-b:a', '128k', '-f', 'mp3'], file('tone.mp3')),
    ffmpeg([...TONE, '-c:a', 'pcm_s16le', '-f', 'wav'], file('tone.wav')),
    ffmpeg([...TONE, '-c:a', 'aac', '-f', 'ipod'], file('tone.m4a')),
  ]);

  const whole = await readFile(mp4);
  const truncated = file('truncated.mp4');
  await writeFile(truncated, whole.subarray(0, Math.floor(whole.length * 0.3)));

  const hls = file('playlist.mp4');
  await writeFile(
    hls,
    [
      '#EXTM3U',
      '#EXT-X-VERSION:3',
      '#EXT-X-TARGETDURATION:10',
      '#EXT-X-MEDIA-SEQUENCE:0',
      '#EXTINF:10.0,',
      'file:///etc/passwd',
      '#EXTINF:10.0,',
      'http://169.254.169.254/latest/meta-data/',
      '#EXT-X-ENDLIST',
      '',
    ].join('\n'),
  );
  const concat = file('concat.mp4');
  await writeFile(concat, "ffconcat version 1.0\nfile '/etc/passwd'\nfile 'http://127.0.0.1:9/x.mp4'\n");
  const text = file('note.mp4');
  await writeFile(text, 'This is a note about the party, not a video.\n');

  return { mp4, mov, avi, mp3, wav, m4a, hls, concat, truncated, text };
}

/**
 * WebM as browsers' MediaRecorder writes it (VP8 and Opus; Opus alone for an audio message), made by
 * the same ffmpeg, beside makeTestMedia's files (removeTestMedia removes them too). Only the tests
 * that need WebM pay for the VP8 encode.
 */
export async function makeWebmMedia(): Promise<{ video: string; audio: string }> {
  const mp4 = (await makeTestMedia()).mp4;
  const dir = path.dirname(mp4);
  const ffmpeg = (args: string[], out: string) => cachedFfmpeg(args, out, 120_000);
  const opus = ['-c:a', 'libopus', '-b:a', '64k'];
  const [video, audio] = await Promise.all([
    ffmpeg(
      [
        ...PATTERN,
        ...TONE,
        '-c:v',
        'libvpx',
        '-deadline',
        'realtime',
        '-cpu-used',
        '8',
        '-b:v',
        '500k',
        ...opus,
        '-shortest',
        '-f',
        'webm',
      ],
      path.join(dir, 'recorded.webm'),
    ),
    ffmpeg([...TONE, ...opus, '-f', 'webm'], path.join(dir, 'recorded-audio.webm')),
  ]);
  return { video, audio };
}
