import { existsSync } from 'node:fs';
import { rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { probeMedia, type MediaOptions } from './probe.ts';
import { DEMUXER } from './sniff.ts';
import { inputArgs, runTool } from './tools.ts';

/** The film's shape (CONTRACT §12): 1280×720 H.264 and AAC, a 2-second card before each clip. */
export const MONTAGE = { width: 1280, height: 720, fps: 30, cardSeconds: 2, sampleRate: 48_000 } as const;
/** EBU R128: every clip brought to -23 LUFS integrated, true peak at most -2 dBTP. */
export const MONTAGE_LOUDNESS = { integrated: -23, truePeak: -2, range: 11 } as const;
export const DEFAULT_SEGMENT_TIMEOUT_MS = 20 * 60_000;

const FFMPEG_START = ['-nostdin', '-hide_banner', '-v', 'error', '-y'];
const FONTS = [
  '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf',
  '/usr/share/fonts/TTF/DejaVuSans-Bold.ttf',
  '/usr/share/fonts/dejavu/DejaVuSans-Bold.ttf',
  '/usr/share/fonts/truetype/freefont/FreeSansBold.ttf',
];
/** A bundled font where there is one (Debian's fonts-dejavu-core); else fontconfig's default. */
const fontFile = () => FONTS.find((font) => existsSync(font));

const ENCODE = [
  ...['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '23', '-profile:v', 'high', '-pix_fmt', 'yuv420p'],
  ...['-r', String(MONTAGE.fps), '-c:a', 'aac', '-b:a', '160k', '-ar', String(MONTAGE.sampleRate), '-ac', '2'],
];

/**
 * One part of the film, `workDir/outName`: the title card with `name`, then the clip scaled and padded
 * to 1280×720, its audio brought to -23 LUFS (two-pass loudnorm: measured, then a linear gain) or
 * silence where it has none. The clip is read as an upload is: sniffed demuxer, files only, allowed
 * decoders. Every file is named relative to workDir, which ffmpeg runs in. Written atomically.
 */
export async function renderMontageSegment(
  workDir: string,
  clipName: string,
  name: string,
  outName: string,
  opts: MediaOptions = {},
): Promise<{ seconds: number }> {
  const run = opts.run ?? runTool;
  const clip = path.join(workDir, clipName);
  const probed = await probeMedia(clip, opts);
  if (probed.kind !== 'video') throw new Error('A montage clip needs a video stream');
  const input = inputArgs(clip, DEMUXER[probed.container]);
  const timeoutMs = opts.timeoutMs ?? DEFAULT_SEGMENT_TIMEOUT_MS;

  const textFile = `${outName}.name.txt`;
  await writeFile(path.join(workDir, textFile), name);
  await writeFile(path.join(workDir, 'from.txt'), 'A message from');
  const font = fontFile();
  const text = (file: string, size: number, colour: string, y: string) =>
    `drawtext=${font ? `fontfile=${font}:` : ''}textfile=${file}:expansion=none:fontsize=${size}:fontcolor=${colour}:x=(w-text_w)/2:y=${y}`;
  const { width, height, fps, cardSeconds, sampleRate } = MONTAGE;
  const card = [
    `color=c=0x1c1917:s=${width}x${height}:r=${fps}:d=${cardSeconds}`,
    'format=yuv420p',
    text('from.txt', 40, '0xd6d3d1', 'h/2-100'),
    text(textFile, nameSize(name), 'white', '(h-text_h)/2+20'),
    'setsar=1',
  ].join(',');
  const silence = (seconds: number) => `anullsrc=r=${sampleRate}:cl=stereo,atrim=duration=${seconds}`;
  const fit = `scale=${width}:${height}:force_original_aspect_ratio=decrease,pad=${width}:${height}:(ow-iw)/2:(oh-ih)/2:color=black`;
  const audio = probed.audioCodec
    ? `[0:a:0]${await loudnessFilter(run, input, timeoutMs, opts.signal)},aresample=${sampleRate},aformat=sample_fmts=fltp:channel_layouts=stereo`
    : silence(probed.durationSeconds);
  const graph = [
    `${card}[cv]`,
    `${silence(cardSeconds)}[ca]`,
    `[0:v:0]${fit},setsar=1,fps=${fps},format=yuv420p[v]`,
    `${audio}[a]`,
    '[cv][ca][v][a]concat=n=2:v=1:a=1[outv][outa]',
  ].join(';');
  const partial = `.${outName}.partial.mp4`;
  await run({
    tool: 'ffmpeg',
    args: [
      ...FFMPEG_START,
      ...input,
      ...['-filter_complex', graph, '-map', '[outv]', '-map', '[outa]'],
      ...['-map_metadata', '-1', '-map_chapters', '-1', ...ENCODE, '-f', 'mp4', partial],
    ],
    timeoutMs,
    signal: opts.signal,
    cwd: workDir,
  });
  await rename(path.join(workDir, partial), path.join(workDir, outName));
  return { seconds: cardSeconds + probed.durationSeconds };
}

/** Long names get smaller type, so that a name fits the card's width. */
function nameSize(name: string): number {
  return Math.max(28, Math.min(72, Math.floor(1900 / Math.max(1, [...name].length))));
}

const Measured = ['input_i', 'input_tp', 'input_lra', 'input_thresh', 'target_offset'] as const;

/** loudnorm's first pass: the clip's loudness, so that the second applies one linear gain. */
async function loudnessFilter(
  run: NonNullable<MediaOptions['run']>,
  input: string[],
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<string> {
  const { integrated, truePeak, range } = MONTAGE_LOUDNESS;
  const target = `I=${integrated}:TP=${truePeak}:LRA=${range}`;
  const { stderr = '' } = await run({
    tool: 'ffmpeg',
    args: [
      ...['-nostdin', '-hide_banner', '-nostats', '-v', 'info'],
      ...input,
      ...['-map', '0:a:0', '-af', `loudnorm=${target}:print_format=json`, '-f', 'null', '-'],
    ],
    timeoutMs,
    signal,
  });
  const json = stderr.slice(stderr.lastIndexOf('{'), stderr.lastIndexOf('}') + 1);
  let measured: Record<string, string> = {};
  try {
    measured = JSON.parse(json) as Record<string, string>;
  } catch {
    // no measurement: the single-pass (dynamic) loudnorm below still aims at the target
  }
  const values = Measured.map((key) => Number(measured[key]));
  // silence (-inf) cannot be raised to a level: it stays silence
  if (values.some((v) => !Number.isFinite(v))) return `loudnorm=${target}`;
  const [i, tp, lra, thresh, offset] = values;
  return `loudnorm=${target}:measured_I=${i}:measured_TP=${tp}:measured_LRA=${lra}:measured_thresh=${thresh}:offset=${offset}:linear=true`;
}

/**
 * The parts joined without encoding again (they share every parameter), index at the front, into
 * `workDir/outName`. The list names only the parts, relatively, read through the file protocol.
 */
export async function joinMontageSegments(
  workDir: string,
  segments: readonly string[],
  outName: string,
  opts: MediaOptions = {},
): Promise<void> {
  const run = opts.run ?? runTool;
  if (segments.some((s) => !/^[\w.-]+$/.test(s))) throw new Error('Montage parts must be plain file names');
  await writeFile(path.join(workDir, 'parts.txt'), segments.map((s) => `file '${s}'\n`).join(''));
  const partial = `.${outName}.partial.mp4`;
  try {
    await run({
      tool: 'ffmpeg',
      args: [
        ...FFMPEG_START,
        ...['-protocol_whitelist', 'file', '-f', 'concat', '-safe', '1', '-i', 'parts.txt'],
        ...['-map', '0:v', '-map', '0:a', '-c', 'copy', '-movflags', '+faststart', '-f', 'mp4', partial],
      ],
      timeoutMs: opts.timeoutMs ?? DEFAULT_SEGMENT_TIMEOUT_MS,
      signal: opts.signal,
      cwd: workDir,
    });
    await rename(path.join(workDir, partial), path.join(workDir, outName));
  } catch (error) {
    await rm(path.join(workDir, partial), { force: true });
    throw error;
  }
}
