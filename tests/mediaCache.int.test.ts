import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { cachedFfmpeg, makeTestMedia, removeTestMedia } from './support/media.ts';

/**
 * The test media are made once per run (tests/support/media.ts, docs/test-times.md): the run's cache
 * holds each ffmpeg fixture, every file gets a copy of its own, and two workers asking for the same
 * one at once both get a whole file.
 */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tribute-media-cache-test-'));
afterAll(async () => {
  fs.rmSync(dir, { recursive: true, force: true });
  await removeTestMedia();
});

const cacheDir = () => inject('mediaCacheDir')!;
/** The cache's whole files: the other worker may be making one (a `.partial` file) at any moment. */
const cached = () => fs.readdirSync(cacheDir()).filter((file) => !file.includes('.partial'));

describe('the run’s ffmpeg fixtures', () => {
  it('are kept in the run’s cache, and each file gets a copy of its own', async () => {
    const media = await makeTestMedia();
    expect(cacheDir()).toBeTruthy();
    for (const name of ['mp4', 'mov', 'avi', 'mp3', 'wav', 'm4a'] as const) {
      const own = fs.readFileSync(media[name]);
      expect(own.length).toBeGreaterThan(1000);
      const source = cached().find((file) => fs.readFileSync(path.join(cacheDir(), file)).equals(own));
      expect(source).toBeDefined();
      // a copy, not the cache's file: what a test does to it reaches no other file
      expect(fs.statSync(media[name]).ino).not.toBe(fs.statSync(path.join(cacheDir(), source!)).ino);
    }
  });

  it('is made once: a second file gets the cached bytes without running ffmpeg again', async () => {
    const args = [
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=330:sample_rate=8000:duration=1',
      '-c:a',
      'pcm_s16le',
      '-f',
      'wav',
    ];
    const first = await cachedFfmpeg(args, path.join(dir, 'first.wav'), 60_000);
    const made = cached().find(
      (file) => file.endsWith('.wav') && fs.readFileSync(path.join(cacheDir(), file)).equals(fs.readFileSync(first)),
    );
    expect(made).toBeDefined();
    const before = fs.statSync(path.join(cacheDir(), made!)).mtimeMs;
    const second = await cachedFfmpeg(args, path.join(dir, 'second.wav'), 60_000);
    expect(fs.readFileSync(second).equals(fs.readFileSync(first))).toBe(true);
    expect(fs.statSync(path.join(cacheDir(), made!)).mtimeMs).toBe(before);
  });

  it('gives whole files to two makers of one fixture at once, and leaves no partial file', async () => {
    const args = [
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=550:sample_rate=8000:duration=1',
      '-c:a',
      'pcm_s16le',
      '-f',
      'wav',
    ];
    const outs = await Promise.all(
      [1, 2, 3].map((n) => cachedFfmpeg(args, path.join(dir, `together-${n}.wav`), 60_000)),
    );
    const bytes = outs.map((out) => fs.readFileSync(out));
    // 1 s of 8 kHz 16-bit mono, plus the header
    for (const b of bytes) {
      expect(b.length).toBeGreaterThan(16_000);
      expect(b.equals(bytes[0]!)).toBe(true);
    }
    // this process's makers left nothing half-made (the other worker's may be making its own now)
    const ours = `.${process.pid}-`;
    expect(fs.readdirSync(cacheDir()).filter((file) => file.includes(ours) && file.includes('.partial'))).toEqual([]);
  });
});
