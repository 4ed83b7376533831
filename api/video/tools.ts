import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import path from 'node:path';
import { MediaToolFailed } from './errors.ts';

/*
 * ffmpeg and ffprobe are spawned here directly rather than through fluent-ffmpeg, because it gets in
 * the way of the three things every call must have:
 * - its ffprobe() has no timeout at all, and its ffmpeg `timeout` option sends SIGTERM, not SIGKILL;
 * - before a command it spawns `ffmpeg -formats` / `-encoders` to check capabilities: more processes
 *   outside the timeout;
 * - it decides where options go around `-i`, and `-protocol_whitelist` and `-f` must sit before it.
 * An argument array given to spawn (never a shell) is also simpler to read and to assert on in tests.
 */

export type MediaTool = 'ffmpeg' | 'ffprobe';

export interface ToolRun {
  tool: MediaTool;
  args: readonly string[];
  timeoutMs: number;
  signal?: AbortSignal;
  /** The directory it runs in: the montage names its own files relatively, never escaping a path. */
  cwd?: string;
}

/** Runs one tool to completion and resolves with its stdout. Injectable so tests can watch the calls. */
export type ToolRunner = (run: ToolRun) => Promise<{ stdout: string; stderr?: string }>;

export interface MediaToolPaths {
  ffmpeg: string;
  ffprobe: string;
  source: 'system' | 'npm';
}

let toolPaths: Promise<MediaToolPaths> | undefined;

/**
 * FFMPEG_PATH and FFPROBE_PATH when both are set (the image sets Debian's), else a system ffmpeg +
 * ffprobe pair on PATH (kept up to date by the OS) when both are there, otherwise the static builds
 * from @ffmpeg-installer / @ffprobe-installer, which are development dependencies (decision 082).
 */
export function mediaToolPaths(): Promise<MediaToolPaths> {
  toolPaths ??= (async () => {
    const { FFMPEG_PATH, FFPROBE_PATH } = process.env;
    if (FFMPEG_PATH && FFPROBE_PATH) return { ffmpeg: FFMPEG_PATH, ffprobe: FFPROBE_PATH, source: 'system' };
    const ffmpeg = onPath('ffmpeg');
    const ffprobe = onPath('ffprobe');
    if (ffmpeg && ffprobe) return { ffmpeg, ffprobe, source: 'system' };
    const [ffmpegNpm, ffprobeNpm] = await Promise.all([
      import('@ffmpeg-installer/ffmpeg'),
      import('@ffprobe-installer/ffprobe'),
    ]);
    return { ffmpeg: ffmpegNpm.default.path, ffprobe: ffprobeNpm.default.path, source: 'npm' };
  })();
  return toolPaths;
}

function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not in this directory
    }
  }
  return undefined;
}

const MAX_STDOUT = 4 * 1024 * 1024;
const STDERR_TAIL = 2000;

export const runTool: ToolRunner = async ({ tool, args, timeoutMs, signal, cwd }) => {
  const binary = (await mediaToolPaths())[tool];
  if (signal?.aborted) throw new MediaToolFailed({ tool, exitCode: null, signal: null, aborted: true, detail: '' });
  return new Promise((resolve, reject) => {
    // stdin is closed too: ffprobe has no -nostdin, and ffmpeg must never wait on a terminal.
    const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'], shell: false, windowsHide: true, cwd });
    let stdout = '';
    let stderr = '';
    let killedFor: 'timeout' | 'abort' | 'output' | undefined;
    const kill = (why: typeof killedFor) => {
      killedFor ??= why;
      child.kill('SIGKILL');
    };
    const timer = setTimeout(() => kill('timeout'), Math.max(1, timeoutMs));
    const onAbort = () => kill('abort');
    signal?.addEventListener('abort', onAbort, { once: true });

    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      if (stdout.length > MAX_STDOUT) kill('output');
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-STDERR_TAIL);
    });
    child.on('error', (err) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      reject(err);
    });
    // 'close', not 'exit': the process is gone and its pipes drained, so the caller may delete its files.
    child.on('close', (exitCode, exitSignal) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      if (exitCode === 0 && !killedFor) return resolve({ stdout, stderr });
      reject(
        new MediaToolFailed({
          tool,
          exitCode,
          signal: exitSignal,
          timedOut: killedFor === 'timeout',
          aborted: killedFor === 'abort',
          detail: killedFor === 'output' ? 'too much output' : stderr.trim(),
        }),
      );
    });
  });
};

/**
 * The decoders the app needs for phone and camera video and common audio, and no other: a file whose
 * streams need anything else fails at ffprobe, before ffmpeg decodes a frame of it.
 */
export const ALLOWED_DECODERS = [
  ...['h264', 'hevc', 'mpeg4', 'mjpeg', 'prores', 'vp8', 'vp9'],
  ...['aac', 'mp3float', 'mp3', 'alac', 'opus', 'vorbis', 'ac3', 'eac3', 'flac', 'adpcm_ima_wav'],
  ...['pcm_s16le', 'pcm_s16be', 'pcm_s24le', 'pcm_s24be', 'pcm_s32le', 'pcm_f32le', 'pcm_f32be', 'pcm_u8'],
  ...['pcm_alaw', 'pcm_mulaw'],
] as const;

/**
 * The input options every call uses: files only, the sniffed demuxer, the allowed decoders, and a
 * path that cannot be a URL.
 */
export function inputArgs(file: string, demuxer: string): string[] {
  return [
    ...['-protocol_whitelist', 'file', '-codec_whitelist', ALLOWED_DECODERS.join(',')],
    ...['-f', demuxer, '-i', fileUrl(file)],
  ];
}

/** `file:` in front, so a name like `concat:a|b` or `-x` is never read as a protocol or an option. */
export function fileUrl(file: string): string {
  return `file:${path.resolve(file)}`;
}

/** Shared by the steps of one operation, so `timeoutMs` bounds the whole of it. */
export function deadline(timeoutMs: number): () => number {
  // a timeout: elapsed time, not domain time (decision 147)
  const end = Date.now() + timeoutMs;
  return () => Math.max(1, end - Date.now());
}
