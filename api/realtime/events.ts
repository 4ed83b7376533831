import type { QueueCounts } from '#projections/catalog/adminQueue.ts';
import type { CommentView } from '#projections/catalog/engagement.ts';
import type { ItemView, Kind } from '#projections/catalog/items.ts';

/** Every event the server pushes, with its payload (CONTRACT §4). position: the log cursor (chain seq). */
export interface ServerToClientEvents {
  'gallery:item-added': (p: { position: number; kind: Kind; item: ItemView }) => void;
  'gallery:item-removed': (p: { position: number; kind: Kind; id: number }) => void;
  'likes:changed': (p: { position: number; kind: Kind; id: number; likeCount: number }) => void;
  'comments:added': (p: {
    position: number;
    kind: Kind;
    id: number;
    comment: CommentView;
    commentCount: number;
  }) => void;
  'comments:removed': (p: {
    position: number;
    kind: Kind;
    id: number;
    commentId: number;
    commentCount: number;
  }) => void;
  'admin:queue-changed': (p: { position: number; kind: Kind } & QueueCounts) => void;
  presence: (p: { online: number }) => void;
  /** To one reconnecting socket: what it missed since its `since`, up to `upTo`; or refetch everything. */
  'sync:batch': (p: { upTo: number; refetch: boolean; messages: Message[] }) => void;
}

export type ServerEvent = Exclude<keyof ServerToClientEvents, 'sync:batch'>;
export type Payload<E extends ServerEvent> = Parameters<ServerToClientEvents[E]>[0];
/** One event with its payload, as a value: what the publisher and the catch-up hand around. */
export type Message = { [E in ServerEvent]: { event: E; payload: Payload<E> } }[ServerEvent];

export const ROOMS = { everyone: 'everyone', admins: 'admins' } as const;
export const sessionRoom = (tokenHash: string) => `session:${tokenHash}`;
export type Room = (typeof ROOMS)[keyof typeof ROOMS];

/** Which room hears which event. */
export const ROOM_OF: { [E in ServerEvent]: Room } = {
  'gallery:item-added': 'everyone',
  'gallery:item-removed': 'everyone',
  'likes:changed': 'everyone',
  'comments:added': 'everyone',
  'comments:removed': 'everyone',
  'admin:queue-changed': 'admins',
  presence: 'everyone',
};
