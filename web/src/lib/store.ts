import { useSyncExternalStore } from 'react';

/** A value outside React that components follow: the toast on screen, the session, who is online. */
export interface Store<T> {
  get(): T;
  /** Replaces the value and tells every follower; the same value (Object.is) tells no one. */
  set(next: T): void;
  subscribe(listener: () => void): () => void;
}

export function createStore<T>(initial: T): Store<T> {
  let value = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => value,
    set(next) {
      if (Object.is(next, value)) return;
      value = next;
      for (const listener of listeners) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}

/** The store's value, re-rendering when it changes. */
export function useStore<T>(store: Store<T>): T;
/** The part of the store's value `select` picks, re-rendering when that part changes (Object.is). */
export function useStore<T, S>(store: Store<T>, select: (value: T) => S): S;
export function useStore<T, S>(store: Store<T>, select?: (value: T) => S): T | S {
  return useSyncExternalStore<T | S>(store.subscribe, select ? () => select(store.get()) : store.get);
}
