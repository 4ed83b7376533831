import { z } from 'zod';
import { MediaRejected, MediaToolFailed } from './errors.ts';
import { type Container, DEMUXER, sniffMediaFile } from './sniff.ts';
import { deadline, inputArgs, runTool, type ToolRunner } from './tools.ts';

export type MediaKind = 'video' | 'audio';

export interface ProbedMedia {
  kind: MediaKind;
  container: Container;
  videoCodec?: string;
  audioCodec?: string;
  durationSeconds: number;
  /** As displayed: swapped for a phone video stored sideways with a 90° rotation. */
  width?: number;
  height?: number;
  mimeType: string;
  /** Plays in current browsers as is; `false` means transcodeToMp4 first. */
  browserPlayable: boolean;
}

export interface MediaOptions {
  timeoutMs?: number;
  signal?: AbortSignal;
  run?: ToolRunner;
}

export const MAX_DURATION_SECONDS = 60 * 60;
export const MAX_EDGE_PIXELS = 8192;
const DEFAULT_PROBE_TIMEOUT_MS = 20_000;

const Stream = z.object({
  codec_type: z.string().optional(),
  codec_name: z.string().optional(),
  pix_fmt: z.string().optional(),
  width: z.number().optional(),
  height: z.number().optional(),
  duration: z.coerce.number().optional(),
  disposition: z.object({ attached_pic: z.number().optional() }).optional(),
  tags: z.object({ rotate: z.coerce.number().optional() }).optional(),
  side_data_list: z.array(z.object({ rotation: z.number().optional() })).optional(),
});
const ProbeOutput = z.object({
  streams: z.array(Stream).default([]),
  format: z.object({ format_name: z.string(), duration: z.coerce.number().optional() }),
});
type Stream = z.infer<typeof Stream>;

/**
 * Sniffs, then asks ffprobe, then checks the answer. ffprobe only ever reads local files (protocol
 * whitelist), with the sniffed demuxer, and is killed if it takes longer than `timeoutMs`.
 */
export async function probeMedia(path: string, opts: MediaOptions = {}): Promise<ProbedMedia> {
  const remaining = deadline(opts.timeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS);
  const { container } = await sniffMediaFile(path);
  const run = opts.run ?? runTool;
  let stdout: string;
  try {
    ({ stdout } = await run({
      tool: 'ffprobe',
      args: [
        ...['-v', 'error', '-hide_banner'],
        ...inputArgs(path, DEMUXER[container]),
        ...['-print_format', 'json', '-show_format', '-show_streams'],
      ],
      timeoutMs: remaining(),
      signal: opts.signal,
    }));
  } catch (err) {
    // Bytes ffprobe cannot read, or read too slowly, are the upload's problem; a missing binary is not.
    if (!(err instanceof MediaToolFailed) || err.aborted) throw err;
    throw new MediaRejected(415, { cause: err, reason: `ffprobe: ${err.message}` });
  }
  const parsed = ProbeOutput.safeParse(parseJson(stdout));
  if (!parsed.success) throw new MediaRejected(415, { cause: parsed.error, reason: 'ffprobe: unexpected output' });
  return describe(container, parsed.data);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function describe(container: Container, probe: z.infer<typeof ProbeOutput>): ProbedMedia {
  const reject = (reason: string) => new MediaRejected(415, { reason });
  const isPicture = (s: Stream) => s.disposition?.attached_pic === 1;
  const video = probe.streams.find((s) => s.codec_type === 'video' && !isPicture(s));
  const audio = probe.streams.find((s) => s.codec_type === 'audio');
  if (!video && !audio) throw reject('no audio or video stream');
  const kind: MediaKind = video ? 'video' : 'audio';
  if (kind === 'video' && (container === 'mp3' || container === 'wav')) throw reject('video in an audio container');
  if (kind === 'audio' && (container === 'mov' || container === 'avi')) throw reject('no video in a video container');

  const durations = [probe.format.duration, video?.duration, audio?.duration];
  const durationSeconds = Math.max(0, ...durations.filter((d): d is number => d !== undefined && Number.isFinite(d)));
  if (!(durationSeconds > 0)) throw reject('no usable duration');
  if (durationSeconds > MAX_DURATION_SECONDS) throw new MediaRejected(413, { reason: `duration ${durationSeconds}s` });

  const size = video ? displaySize(video) : undefined;
  if (video && !size) throw reject('video without dimensions');
  if (size && Math.max(size.width, size.height) > MAX_EDGE_PIXELS)
    throw new MediaRejected(413, { reason: 'dimensions' });

  return {
    kind,
    container,
    videoCodec: video?.codec_name,
    audioCodec: audio?.codec_name,
    durationSeconds,
    ...size,
    mimeType: mimeType(kind, container),
    browserPlayable: browserPlayable(container, video, audio),
  };
}

function displaySize(video: Stream): { width: number; height: number } | undefined {
  const { width, height } = video;
  if (!width || !height || width < 1 || height < 1) return undefined;
  const rotation = video.side_data_list?.find((d) => d.rotation !== undefined)?.rotation ?? video.tags?.rotate ?? 0;
  return Math.abs(rotation) % 180 === 90 ? { width: height, height: width } : { width, height };
}

function mimeType(kind: MediaKind, container: Container): string {
  switch (container) {
    case 'mp4':
    case 'm4a':
      return kind === 'video' ? 'video/mp4' : 'audio/mp4';
    case 'mov':
      return 'video/quicktime';
    case 'avi':
      return 'video/x-msvideo';
    case 'mp3':
      return 'audio/mpeg';
    case 'wav':
      return 'audio/wav';
    case 'webm':
      return kind === 'video' ? 'video/webm' : 'audio/webm';
    default: {
      const unknown: never = container;
      throw new Error(`Unhandled container ${String(unknown)}`);
    }
  }
}

const BROWSER_AUDIO = new Set(['aac', 'mp3']);

function browserPlayable(container: Container, video: Stream | undefined, audio: Stream | undefined): boolean {
  // WebM plays in most browsers but not in Safari before 17 on iPhones: it is transcoded to MP4 or M4A
  if (container === 'mov' || container === 'avi' || container === 'webm') return false;
  if (container === 'mp3') return audio?.codec_name === 'mp3';
  if (container === 'wav') return audio?.codec_name?.startsWith('pcm_') ?? false;
  const audioOk = !audio || BROWSER_AUDIO.has(audio.codec_name ?? '');
  if (!video) return audioOk;
  // 10-bit or 4:4:4 H.264 is still "h264" but most browsers will not decode it.
  return video.codec_name === 'h264' && (video.pix_fmt === 'yuv420p' || video.pix_fmt === 'yuvj420p') && audioOk;
}
