/**
 * The live-update contract (CONTRACT §4): every socket event the server sends, its room and its
 * payload. The server and the web app both import this module, so a name or a field cannot drift.
 * Items and comments are the views of contract/views.ts, the same the API answers.
 *
 * `position` is the log cursor (chain seq): it only grows on a connection. `after` is the position of
 * the message before this one that the same audience was sent, so a client whose `position` is not
 * where `after` says it should be knows it missed something and resyncs (docs/decisions/011).
 * Audiences are chains: everyone's messages, and each room's with everyone's (the admins', the
 * mural's), so `after` names the message before in `everyone` and the message's own room.
 */

import type { MineChanged } from './mine.ts';
import type { MuralState, MuralStroke } from './mural.ts';

import type { CommentView, GalleryItemView, Kind, QueueCounts } from './views.ts';

export type { Kind, QueueCounts };

interface Positioned {
  position: number;
  after: number;
}

export type ShowState = 'idle' | 'running' | 'paused';
/** What the show can point at: a submission, the one mural (CONTRACT §8; decision 046) or the montage (§12; 125). */
export type ShowKind = Kind | 'mural' | 'montage';
export interface ShowItemRef {
  kind: ShowKind;
  id: number;
}
/** The mural as the show names it: there is one (decision 038), so its id is always 1. */
export const MURAL_ITEM = { kind: 'mural', id: 1 } as const satisfies ShowItemRef;
/** The film of everyone's video messages as the show names it: there is one, so its id is always 1. */
export const MONTAGE_ITEM = { kind: 'montage', id: 1 } as const satisfies ShowItemRef;
/** Whether the show's item is a submission (reacted to, looked up in the gallery), not the mural or the montage. */
export const isSubmission = (ref: ShowItemRef): ref is ShowItemRef & { kind: Kind } =>
  ref.kind !== MURAL_ITEM.kind && ref.kind !== MONTAGE_ITEM.kind;
/** The reaction emoji, in the bar's order (CONTRACT §7). */
export const REACTION_EMOJIS = ['👏', '❤️', '😂', '😮', '🎉', '🙏'] as const;
export type ReactionEmoji = (typeof REACTION_EMOJIS)[number];
export type ReactionCounts = Partial<Record<ReactionEmoji, number>>;

/** Where the show stands (CONTRACT §7): `GET /api/show` answers this, and `show:changed` carries it. */
export interface ShowStatus {
  state: ShowState;
  current: ShowItemRef | null;
  /** the current item's place in the show, from 0 */
  index: number;
  /** how many items the show holds */
  total: number;
}

/** `GET /api/show` (CONTRACT §7): where the show stands, what comes next, and the log position it reflects. */
export interface ShowAnswer extends ShowStatus {
  upNext: ShowItemRef[];
  position: number;
}

export interface LivePayloads {
  /**
   * The item as a guest's gallery page shows it, and the day its `order` is for: a screen puts it in
   * its cached pages of that day, and loads again a page it cannot place it on (decision 133).
   */
  'gallery:item-added': Positioned & { kind: Kind; item: GalleryItemView; day: string };
  /**
   * An item that was in the gallery left it, with its key in the day's `order` (as an item carries
   * it) and that `day`: a screen takes it out of its cached pages of that day (decision 140).
   */
  'gallery:item-removed': Positioned & { kind: Kind; id: number; day: string; order: string };
  'likes:changed': Positioned & { kind: Kind; id: number; likeCount: number };
  'comments:added': Positioned & { kind: Kind; id: number; comment: CommentView; commentCount: number };
  'comments:removed': Positioned & { kind: Kind; id: number; commentId: number; commentCount: number };
  'admin:queue-changed': Positioned & { kind: Kind } & QueueCounts;
  'show:changed': Positioned & ShowStatus;
  /** taps since the last burst (`counts`) and the item's totals, at most 4 a second per item */
  'reactions:burst': Positioned & { kind: Kind; id: number; counts: ReactionCounts; totals: ReactionCounts };
  /** a stroke finished on the mural (CONTRACT §8) */
  'mural:stroke-added': Positioned & { stroke: MuralStroke };
  'mural:stroke-removed': Positioned & { id: number };
  'mural:state': Positioned & { state: MuralState; artworkId: number | null };
  /** a message guests may see was given, or lost, its WebVTT track (decisions 123, 130) */
  'media:captions-changed': Positioned & { kind: 'media'; id: number; captionsUrl: string | null };
}

export type LiveEvent = keyof LivePayloads;

/** One positioned event with its payload, as a value: what the outbox stores and a catch-up batch holds. */
export type LiveMessage = {
  [E in LiveEvent]: { event: E; payload: LivePayloads[E] };
}[LiveEvent];

/** Sent once to every socket as it joins: what it missed since its `since`, up to `upTo`; or refetch all. */
export interface SyncBatch {
  upTo: number;
  refetch: boolean;
  messages: LiveMessage[];
}

export interface Presence {
  /** every live connection, across every API process */
  online: number;
  /** the connections that follow the show (a `/reveal` screen, a phone on it), across every API process */
  following: number;
}

/**
 * How far the projections (the worker) are behind the log, from the API process a screen is on:
 * sent after the welcome and whenever `catchingUp` changes. While it is true, what was just sent may
 * take a while to show (docs/decisions/079).
 */
export interface ProjectionLagStatus {
  /** events the furthest-behind projection has not applied yet */
  behind: number;
  /** more than READY_MAX_LAG events behind */
  catchingUp: boolean;
}

/** What the server sends, as socket.io's event map. */
export type ServerToClientEvents = {
  [E in LiveEvent]: (payload: LivePayloads[E]) => void;
} & {
  'sync:batch': (batch: SyncBatch) => void;
  presence: (payload: Presence) => void;
  'projections:lag': (payload: ProjectionLagStatus) => void;
  /** only to the sender's own sockets, outside the sequence above (CONTRACT §11) */
  'mine:changed': (payload: MineChanged) => void;
};

/**
 * What a client sends after its handshake: only whether it follows the show, which it says again on
 * every (re)connection. The presenter shows how many screens follow (CONTRACT §7, decision 036).
 */
export interface ClientToServerEvents {
  'show:follow': (following: boolean) => void;
  /**
   * Whether a mural is on the page: only sockets that watch it are sent its strokes (decision 116).
   * The server acknowledges once the socket is in (or out of) the mural's room, with the position up
   * to which it had sent everything when it joined: the mural's messages after it come live.
   */
  'mural:watch': (watching: boolean, joined?: (upTo: number) => void) => void;
}

/** What a client sends in its handshake (`auth`). */
export interface HandshakeAuth {
  token?: string;
  /** the last position this client applied: it is sent what it missed after it */
  since?: number;
  /** the page shows a mural: the socket joins the mural's room, and its catch-up holds the mural's messages */
  mural?: boolean;
}

export const ROOMS = { everyone: 'everyone', admins: 'admins', mural: 'mural' } as const;
export type Room = (typeof ROOMS)[keyof typeof ROOMS];

/** Which room hears which event. */
export const ROOM_OF: { [E in LiveEvent]: Room } = {
  'gallery:item-added': 'everyone',
  'gallery:item-removed': 'everyone',
  'likes:changed': 'everyone',
  'comments:added': 'everyone',
  'comments:removed': 'everyone',
  'admin:queue-changed': 'admins',
  'show:changed': 'everyone',
  'reactions:burst': 'everyone',
  'mural:stroke-added': 'mural',
  'mural:stroke-removed': 'mural',
  'mural:state': 'mural',
  'media:captions-changed': 'everyone',
};

export const LIVE_EVENTS = Object.keys(ROOM_OF) as LiveEvent[];
