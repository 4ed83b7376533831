import fs from 'node:fs';
import os from 'node:os';
import { parentPort } from 'node:worker_threads';
import { renderMural } from './render.ts';

/**
 * Paints the mural off the API's event loop (decision 069): it gets the strokes as JSON text (a
 * string crosses threads as a copy of its bytes, no object cloning) and answers the PNG. The thread
 * runs at the lowest priority where the system lets it (Linux: a thread's own nice value), so on a
 * busy machine the API's thread is given the CPU first and the freeze waits instead.
 */
try {
  const thread = Number(fs.readlinkSync('/proc/thread-self').split('/').at(-1));
  if (Number.isSafeInteger(thread)) os.setPriority(thread, 19);
} catch {
  // not Linux, or not allowed: the painter runs at the process's priority
}

parentPort!.on('message', (strokesJson: string) => {
  parentPort!.postMessage(renderMural(JSON.parse(strokesJson)));
});
