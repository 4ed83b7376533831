import fs from 'node:fs/promises';
import path from 'node:path';

/** The part of the api's object store the anchors need; the log does not depend on the api layer. */
export interface AnchorBlobs {
  put(key: string, body: Buffer, meta: { contentType: string }): Promise<unknown>;
  stat(key: string): Promise<unknown>;
  read(key: string): Promise<NodeJS.ReadableStream>;
}

/** A verified head of the chain, written outside the database so a cut tail or a re-seal shows. */
export interface Anchor {
  seq: number;
  hash: string;
  /** when it was written, UTC */
  at: string;
}

/**
 * Where anchors are kept: `latest` is the newest, `all` every head ever anchored (one entry per
 * distinct seq). Never in PostgreSQL: whoever can rewrite the database must not be able to rewrite these.
 */
export interface AnchorStore {
  readonly where: string;
  write(anchor: Anchor): Promise<void>;
  all(): Promise<Anchor[]>;
  latest(): Promise<Anchor | undefined>;
}

const isAnchor = (a: unknown): a is Anchor =>
  !!a &&
  typeof (a as Anchor).seq === 'number' &&
  typeof (a as Anchor).hash === 'string' &&
  typeof (a as Anchor).at === 'string';

function parseLines(text: string): Anchor[] {
  const anchors: Anchor[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      const a: unknown = JSON.parse(line);
      if (isAnchor(a)) anchors.push(a);
    } catch {
      // a torn last line (a crash mid-append) is skipped; the head file still holds the newest
    }
  }
  return anchors;
}

/** Files under DATA_DIR/anchors/: head.json (replaced atomically) and anchors.ndjson (appended). */
export class FileAnchorStore implements AnchorStore {
  readonly where: string;
  constructor(dir: string) {
    this.where = dir;
  }

  async write(anchor: Anchor) {
    await fs.mkdir(this.where, { recursive: true });
    const previous = await this.latest();
    if (!previous || previous.seq !== anchor.seq || previous.hash !== anchor.hash) {
      await fs.appendFile(path.join(this.where, 'anchors.ndjson'), `${JSON.stringify(anchor)}\n`);
    }
    // a temp file's unique name, renamed at once: not domain time (decision 147)
    const tmp = path.join(this.where, `.head-${process.pid}-${Date.now()}.json`);
    await fs.writeFile(tmp, JSON.stringify(anchor));
    await fs.rename(tmp, path.join(this.where, 'head.json'));
  }

  async all(): Promise<Anchor[]> {
    const text = await fs.readFile(path.join(this.where, 'anchors.ndjson'), 'utf8').catch(() => '');
    const anchors = parseLines(text);
    const head = await this.latest();
    if (head) anchors.push(head);
    return anchors;
  }

  async latest(): Promise<Anchor | undefined> {
    const text = await fs.readFile(path.join(this.where, 'head.json'), 'utf8').catch(() => '');
    return parseLines(text)[0];
  }
}

async function readAllText(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

/** The same two objects, under `anchors/` in the object store when one is configured. */
export class BlobAnchorStore implements AnchorStore {
  readonly where = 'object store: anchors/';
  readonly #blobs: AnchorBlobs;
  constructor(blobs: AnchorBlobs) {
    this.#blobs = blobs;
  }

  async #text(key: string): Promise<string> {
    if (!(await this.#blobs.stat(key))) return '';
    return readAllText(await this.#blobs.read(key));
  }

  async write(anchor: Anchor) {
    const previous = await this.latest();
    if (!previous || previous.seq !== anchor.seq || previous.hash !== anchor.hash) {
      const log = await this.#text('anchors/anchors.ndjson');
      await this.#blobs.put('anchors/anchors.ndjson', Buffer.from(`${log}${JSON.stringify(anchor)}\n`), {
        contentType: 'application/x-ndjson',
      });
    }
    await this.#blobs.put('anchors/head.json', Buffer.from(JSON.stringify(anchor)), {
      contentType: 'application/json',
    });
  }

  async all(): Promise<Anchor[]> {
    const anchors = parseLines(await this.#text('anchors/anchors.ndjson'));
    const head = await this.latest();
    if (head) anchors.push(head);
    return anchors;
  }

  async latest(): Promise<Anchor | undefined> {
    return parseLines(await this.#text('anchors/head.json'))[0];
  }
}

/** The object store when MinIO is configured, otherwise DATA_DIR/anchors/. */
export function anchorStoreFor(config: { dataDir: string; minio?: unknown }, blobs?: AnchorBlobs): AnchorStore {
  if (config.minio && blobs) return new BlobAnchorStore(blobs);
  return new FileAnchorStore(path.join(config.dataDir, 'anchors'));
}
