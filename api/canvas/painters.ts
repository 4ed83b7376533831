import os from 'node:os';
import { Piscina } from 'piscina';
import type { StrokeRecording } from '#contract/strokes.ts';
import { log } from '../observability/logger.ts';
import type { PainterTask } from './painterThread.ts';

/**
 * The painters' threads (decision 096): painting a recording or the mural takes from 0.3 s (a studio
 * drawing) to seconds (a 500,000-point mural), which on the API's event loop would hold every other
 * request. One thread per core but the API's own, kept for the process's life (a thread that ends is
 * joined by the event loop while it frees its memory: over a second after a large mural), and at the
 * lowest priority, so on a busy machine the API's thread gets the CPU first and the painting waits.
 * Idle threads are unref'd by piscina: they hold no exit.
 */
let pool: Piscina<PainterTask, Uint8Array | number> | undefined;

function painters() {
  if (pool) return pool;
  const threads = Math.max(1, os.availableParallelism() - 1);
  pool = new Piscina({
    filename: new URL('./painterThread.ts', import.meta.url).href,
    minThreads: threads,
    maxThreads: threads,
    idleTimeout: Number.POSITIVE_INFINITY,
    niceIncrement: 19,
  });
  // a thread that fails with no task on it: piscina makes another; unheard, it would end the process
  pool.on('error', (error) => log.error({ err: error }, 'painter thread failed'));
  return pool;
}

/** The mural's strokes (JSON text of MuralStrokeInput[]) painted as a PNG, off the event loop. */
export async function paintMuralOffTheLoop(strokesJson: string): Promise<Buffer> {
  const png = (await painters().run({ type: 'mural', strokesJson })) as Uint8Array;
  return Buffer.from(png.buffer, png.byteOffset, png.byteLength);
}

/** The share of pixels (0-1) where a recording's last frame differs from `rgba`, off the event loop. */
export async function mismatchOffTheLoop(recording: StrokeRecording, rgba: Uint8Array): Promise<number> {
  return (await painters().run({ type: 'mismatch', recording, rgba })) as number;
}
