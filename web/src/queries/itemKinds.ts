import { KIND_PATH, KINDS, type Kind } from '../../../contract/views.ts';

export { KINDS, type Kind } from '../../../contract/views.ts';

const capital = <W extends string>(word: W) => `${word[0]!.toUpperCase()}${word.slice(1)}` as Capitalize<W>;

/** How the web app names and reaches one kind, all from the contract's kind list and its URL table. */
function describe<K extends Kind>(kind: K) {
  const path = KIND_PATH[kind];
  return {
    api: `/api/${path}` as const,
    key: path,
    noun: kind,
    Noun: capital(kind),
    /** the kind in a list's heading or a filter: "Artworks", "Stories", "Media" */
    Nouns: capital(path),
    /** the item as its sender calls it: "your artwork", "your story", "your message" */
    sender: kind === 'media' ? 'message' : kind,
  };
}

/** Where each kind of item lives in the API and in the query cache, and its names (one map for the whole web app). */
export const ITEM_KINDS = Object.fromEntries(KINDS.map((kind) => [kind, describe(kind)])) as {
  [K in Kind]: ReturnType<typeof describe<K>>;
};

export const isKind = (value: unknown): value is Kind => (KINDS as readonly unknown[]).includes(value);

/** One item's key, e.g. ['artworks', 7]; its comments and likes sit beneath it, so invalidating it refreshes them too. */
export function itemKey(kind: Kind, id: number) {
  return [ITEM_KINDS[kind].key, id] as const;
}

export function itemPath(kind: Kind, id: number): string {
  return `${ITEM_KINDS[kind].api}/${id}`;
}
