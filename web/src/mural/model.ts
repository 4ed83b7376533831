import type { MuralSnapshot, MuralState, MuralStroke } from '../../../contract/mural.ts';

/** The mural's live messages (contract/live.ts), as the page receives them. */
export type MuralMessage =
  | { event: 'mural:stroke-added'; payload: { position: number; stroke: MuralStroke } }
  | { event: 'mural:stroke-removed'; payload: { position: number; id: number } }
  | { event: 'mural:state'; payload: { position: number; state: MuralState; artworkId: number | null } };

/** What the canvas must do after a change: paint one stroke on top, repaint around one, or all. */
export type Paint =
  { kind: 'add'; stroke: MuralStroke } | { kind: 'remove'; stroke: MuralStroke } | { kind: 'state' } | { kind: 'all' };

/**
 * The mural as this screen knows it: the last snapshot (`GET /api/mural`) and the live messages
 * after it, each applied once, in order. A message at or before the position already held is
 * skipped (a late joiner gets nothing twice); a snapshot that arrives later than some messages gets
 * those laid again on top (they are kept for a while), so a slow answer never undoes a stroke.
 */
export class MuralModel {
  /** in painting order: a new stroke always comes after every one held */
  readonly strokes = new Map<number, MuralStroke>();
  state: MuralState = 'open';
  artworkId: number | null = null;
  position = -1;
  authorId: string | null = null;
  readonly #recent: MuralMessage[] = [];
  static readonly KEEP = 2000;

  reset(snapshot: MuralSnapshot): Paint {
    this.strokes.clear();
    for (const s of [...snapshot.strokes].sort((a, b) => a.position - b.position)) this.strokes.set(s.id, s);
    this.state = snapshot.state;
    this.artworkId = snapshot.artworkId;
    this.position = snapshot.position;
    this.authorId = snapshot.authorId;
    for (const m of this.#recent) this.#apply(m);
    return { kind: 'all' };
  }

  /** Applies a live message; undefined when it changes nothing (already held, or older). */
  apply(message: MuralMessage): Paint | undefined {
    this.#recent.push(message);
    if (this.#recent.length > MuralModel.KEEP) this.#recent.shift();
    return this.#apply(message);
  }

  #apply(message: MuralMessage): Paint | undefined {
    if (message.payload.position <= this.position) return undefined;
    this.position = message.payload.position;
    switch (message.event) {
      case 'mural:stroke-added': {
        const { stroke } = message.payload;
        if (this.strokes.has(stroke.id)) return undefined;
        this.strokes.set(stroke.id, stroke);
        return { kind: 'add', stroke };
      }
      case 'mural:stroke-removed':
        return this.remove(message.payload.id);
      case 'mural:state':
        this.state = message.payload.state;
        this.artworkId = message.payload.artworkId;
        return { kind: 'state' };
    }
  }

  /** Takes a stroke off (an undo this screen made, or a message); undefined when it was not held. */
  remove(id: number): Paint | undefined {
    const stroke = this.strokes.get(id);
    if (!stroke) return undefined;
    this.strokes.delete(id);
    return { kind: 'remove', stroke };
  }

  /** This visitor's strokes, oldest first: what undo takes back, last first. */
  own(): MuralStroke[] {
    return [...this.strokes.values()].filter((s) => s.authorId === this.authorId);
  }
}
