import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestMedia, removeTestMedia, type TestMediaName } from '../../tests/support/media.ts';
import {
  MediaRejected,
  MediaToolFailed,
  makePoster,
  probeMedia,
  runTool,
  type ToolRun,
  type ToolRunner,
  transcodeToMp4,
} from './index.ts';

let media: Record<TestMediaName, string>;
let dir: string;

beforeAll(async () => {
  media = await makeTestMedia();
  dir = await mkdtemp(path.join(os.tmpdir(), 'video-out-'));
});

afterAll(async () => {
  await removeTestMedia();
  await rm(dir, { recursive: true, force: true });
});

/** The real runner, recording every call, so tests can see what ran and with which arguments. */
function recordingRunner(wrap: (run: ToolRun) => ToolRun = (run) => run): { run: ToolRunner; calls: ToolRun[] } {
  const calls: ToolRun[] = [];
  return {
    calls,
    run: (run) => {
      calls.push(run);
      return runTool(wrap(run));
    },
  };
}

async function rejection(work: Promise<unknown>): Promise<unknown> {
  return work.then(
    () => expect.unreachable('should have been rejected'),
    (err: unknown) => err,
  );
}

/** Byte offset of a top-level MP4 box type, or -1. */
async function boxOffset(file: string, type: string): Promise<number> {
  const bytes = await readFile(file);
  for (let at = 0; at + 8 <= bytes.length;) {
    const size = bytes.readUInt32BE(at);
    if (bytes.toString('latin1', at + 4, at + 8) === type) return at;
    if (size < 8) return -1;
    at += size;
  }
  return -1;
}

describe('probeMedia on real files', () => {
  it.each([
    [
      'mp4',
      {
        kind: 'video',
        container: 'mp4',
        mimeType: 'video/mp4',
        browserPlayable: true,
        videoCodec: 'h264',
        audioCodec: 'aac',
        width: 960,
        height: 540,
      },
    ],
    [
      'mov',
      {
        kind: 'video',
        container: 'mov',
        mimeType: 'video/quicktime',
        browserPlayable: false,
        videoCodec: 'mjpeg',
        audioCodec: 'pcm_s16le',
        width: 321,
        height: 241,
      },
    ],
    [
      'avi',
      {
        kind: 'video',
        container: 'avi',
        mimeType: 'video/x-msvideo',
        browserPlayable: false,
        videoCodec: 'mpeg4',
        audioCodec: 'mp3',
      },
    ],
    ['mp3', { kind: 'audio', container: 'mp3', mimeType: 'audio/mpeg', browserPlayable: true, audioCodec: 'mp3' }],
    ['wav', { kind: 'audio', container: 'wav', mimeType: 'audio/wav', browserPlayable: true, audioCodec: 'pcm_s16le' }],
    ['m4a', { kind: 'audio', container: 'm4a', mimeType: 'audio/mp4', browserPlayable: true, audioCodec: 'aac' }],
  ] as const)('%s', async (name, expected) => {
    const { run, calls } = recordingRunner();
    const probed = await probeMedia(media[name], { run });
    expect(probed).toMatchObject(expected);
    expect(probed.durationSeconds).toBeGreaterThan(2.9);
    expect(probed.durationSeconds).toBeLessThan(3.2);
    expect(calls.map((c) => c.tool)).toEqual(['ffprobe']);
  });

  it('reports a sideways phone video at its displayed size', async () => {
    const rotated = path.join(dir, 'rotated.mp4');
    await runTool({
      tool: 'ffmpeg',
      args: [
        '-nostdin',
        '-v',
        'error',
        '-protocol_whitelist',
        'file',
        '-f',
        'mov',
        '-i',
        `file:${media.mp4}`,
        '-c',
        'copy',
        '-metadata:s:v:0',
        'rotate=90',
        '-f',
        'mp4',
        `file:${rotated}`,
      ],
      timeoutMs: 30_000,
    });
    expect(await probeMedia(rotated)).toMatchObject({ width: 540, height: 960 });
  });

  it('refuses more than an hour with 413', async () => {
    const long = path.join(dir, 'long.wav');
    await runTool({
      tool: 'ffmpeg',
      args: [
        '-nostdin',
        '-v',
        'error',
        '-f',
        'lavfi',
        '-i',
        'anullsrc=r=1000:cl=mono',
        '-t',
        '3700',
        '-c:a',
        'pcm_u8',
        '-f',
        'wav',
        `file:${long}`,
      ],
      timeoutMs: 30_000,
    });
    await expect(probeMedia(long)).rejects.toMatchObject({ status: 413, message: 'File too large' });
  });
});

describe('hostile files', () => {
  it.each(['hls', 'concat', 'text'] as const)('%s is refused by the sniff, before ffprobe runs', async (name) => {
    const { run, calls } = recordingRunner();
    const err = await rejection(probeMedia(media[name], { run }));
    expect(err).toBeInstanceOf(MediaRejected);
    expect(err).toMatchObject({ status: 415, message: 'Invalid file type', reason: expect.stringMatching(/^sniff:/) });
    expect(calls).toEqual([]);
  });

  it.each([
    ['png', Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex')],
    ['heic', Buffer.concat([Buffer.from('00000018', 'hex'), Buffer.from('ftypheic\0\0\0\0mif1heic')])],
    ['adts', Buffer.from('fff15080', 'hex')],
  ])('%s bytes named .mp4 are refused by the sniff', async (name, bytes) => {
    const file = path.join(dir, `${name}.mp4`);
    await writeFile(file, bytes);
    const { run, calls } = recordingRunner();
    await expect(probeMedia(file, { run })).rejects.toMatchObject({
      status: 415,
      reason: expect.stringMatching(/^sniff:/),
    });
    expect(calls).toEqual([]);
  });

  it('a truncated MP4 (no moov atom) is refused after ffprobe reads it', async () => {
    const { run, calls } = recordingRunner();
    const err = await rejection(probeMedia(media.truncated, { run }));
    expect(err).toBeInstanceOf(MediaRejected);
    expect(err).toMatchObject({ status: 415, reason: expect.stringMatching(/^ffprobe:.*moov atom not found/s) });
    expect(calls).toHaveLength(1);
  });

  it('every process reads local files only, with a forced demuxer, no stdin and no URL-looking path', async () => {
    const { run, calls } = recordingRunner();
    await probeMedia(media.mov, { run });
    await makePoster(media.mov, path.join(dir, 'args.jpg'), { run });
    await transcodeToMp4(media.mov, path.join(dir, 'args.mp4'), { run });
    expect(calls.map((c) => c.tool)).toEqual(['ffprobe', 'ffprobe', 'ffmpeg', 'ffmpeg']);
    for (const { tool, args } of calls) {
      const input = args.indexOf('-i');
      const beforeInput = args.slice(0, input);
      expect(beforeInput.join(' ')).toContain('-protocol_whitelist file');
      expect(beforeInput.join(' ')).toContain('-f mov');
      expect(args[input + 1]).toBe(`file:${media.mov}`);
      if (tool === 'ffmpeg') expect(args).toContain('-nostdin');
    }
  });
});

describe('makePoster', () => {
  it('writes a JPEG 640 px wide from a video', async () => {
    const out = path.join(dir, 'poster.jpg');
    await makePoster(media.mp4, out);
    expect(await sharp(out).metadata()).toMatchObject({ format: 'jpeg', width: 640, height: 360 });
  });

  it('does not enlarge a small video, and replaces an earlier poster', async () => {
    const out = path.join(dir, 'small-poster.jpg');
    await makePoster(media.avi, out);
    await makePoster(media.mov, out);
    const meta = await sharp(out).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', width: 321 });
  });

  it('refuses audio', async () => {
    await expect(makePoster(media.mp3, path.join(dir, 'audio.jpg'))).rejects.toThrow(/video stream/);
  });
});

describe('transcodeToMp4', () => {
  it.each(['mov', 'avi'] as const)('turns %s into faststart H.264/AAC MP4 with even dimensions', async (name) => {
    const out = path.join(dir, `${name}.mp4`);
    await transcodeToMp4(media[name], out);
    const probed = await probeMedia(out);
    expect(probed).toMatchObject({
      kind: 'video',
      container: 'mp4',
      videoCodec: 'h264',
      audioCodec: 'aac',
      browserPlayable: true,
    });
    expect(probed.width! % 2).toBe(0);
    expect(probed.height! % 2).toBe(0);
    const [moov, mdat] = [await boxOffset(out, 'moov'), await boxOffset(out, 'mdat')];
    expect(moov).toBeGreaterThan(0);
    expect(mdat).toBeGreaterThan(moov);
  });

  it('can run twice on the same output', async () => {
    const out = path.join(dir, 'twice.mp4');
    await transcodeToMp4(media.avi, out);
    const first = await stat(out);
    await transcodeToMp4(media.avi, out);
    expect((await stat(out)).ino).not.toBe(first.ino);
    expect(await probeMedia(out)).toMatchObject({ videoCodec: 'h264', audioCodec: 'aac' });
  });

  it('is killed on timeout and leaves no output behind', async () => {
    const out = await mkdtemp(path.join(dir, 'timeout-'));
    const { run, calls } = recordingRunner();
    const err = await rejection(transcodeToMp4(media.avi, path.join(out, 'late.mp4'), { timeoutMs: 1, run }));
    expect(err).toBeInstanceOf(MediaToolFailed);
    expect(err).toMatchObject({ timedOut: true, signal: 'SIGKILL' });
    expect(calls).toHaveLength(1);
    expect(await readdir(out)).toEqual([]);
  });

  it('leaves neither outPath nor the partial file when killed mid-write', async () => {
    const out = await mkdtemp(path.join(dir, 'abort-'));
    // -re reads the input in real time, so the 3 s clip is still being written when we abort.
    const { run } = recordingRunner((call) => ({ ...call, args: ['-re', ...call.args] }));
    const abort = new AbortController();
    const work = rejection(transcodeToMp4(media.avi, path.join(out, 'aborted.mp4'), { run, signal: abort.signal }));
    while ((await readdir(out)).length === 0) await new Promise((r) => setTimeout(r, 10));
    expect((await readdir(out))[0]).toMatch(/^\.aborted\.mp4\..*\.partial$/);
    abort.abort();
    expect(await work).toMatchObject({ aborted: true, signal: 'SIGKILL' });
    expect(await readdir(out)).toEqual([]);
  });
});
