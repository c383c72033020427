import { useSyncExternalStore } from 'react';

/**
 * One value outside React that plain code and components read, replace and subscribe to. Every
 * module-level or per-page state of the web apps (session, editor bridge, toasts, the editor's
 * stores) is one of these, so none keeps its own listener set.
 */
export interface Store<T> {
  get(): T;
  /** Replaces the value; listeners run only when it is a different value (Object.is). */
  set(next: T): void;
  /** Calls `listener` after every change; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void;
}

/** What reading a store needs (a store, or an object that exposes one's `get` and `subscribe`). */
export type ReadableStore<T> = Pick<Store<T>, 'get' | 'subscribe'>;

export function createStore<T>(initial: T): Store<T> {
  let value = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => value,
    set(next) {
      if (Object.is(next, value)) return;
      value = next;
      // a copy: a listener may unsubscribe (or subscribe another) while they run
      for (const listener of [...listeners]) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}

/**
 * The part of a store's value `select` picks; the component re-renders only when that part
 * changes (Object.is), so `select` must return a primitive or a value the store keeps stable.
 */
export function useStoreValue<T, S>(store: ReadableStore<T>, select: (value: T) => S): S {
  const read = () => select(store.get());
  return useSyncExternalStore(store.subscribe, read, read);
}
