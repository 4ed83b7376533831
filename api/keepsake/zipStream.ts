import { once } from 'node:events';
import { ZipArchive } from 'archiver';
import type { Writable } from 'node:stream';

/**
 * The one adapter over archiver (a maintained streaming zip writer): entries are written one after
 * another, each source opened only when the one before is in the archive, and the archive is piped
 * to `out` with its backpressure, so memory does not grow with the gallery.
 */
export class ZipStream {
  readonly #zip = new ZipArchive({ zlib: { level: 6 } });
  readonly #failed: Promise<never>;

  constructor(out: Writable) {
    this.#failed = new Promise((_, reject) => {
      this.#zip.on('error', reject);
      out.on('error', reject);
    });
    this.#failed.catch(() => undefined);
    this.#zip.pipe(out);
  }

  /** Adds one entry and waits until it is written; `store` for files that are compressed already. */
  async add(name: string, source: NodeJS.ReadableStream | Buffer | string, store = false): Promise<void> {
    const written = new Promise<void>((resolve) => {
      const onEntry = (entry: { name: string }) => {
        if (entry.name !== name) return;
        this.#zip.off('entry', onEntry);
        resolve();
      };
      this.#zip.on('entry', onEntry);
    });
    this.#zip.append(source, { name, store });
    await Promise.race([written, this.#failed]);
  }

  /** Writes the central directory and waits until `out` has it all. */
  async finish(out: Writable): Promise<number> {
    const ended = once(out, 'finish');
    await Promise.race([this.#zip.finalize(), this.#failed]);
    await Promise.race([ended, this.#failed]);
    return this.#zip.pointer();
  }
}
