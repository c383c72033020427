import { createContext, useContext, type Context } from 'react';
import { useStoreValue } from '@wordcut/ui';

/** A store outside React that components subscribe to; both functions are bound (React keeps the subscription while `subscribe` stays the same). */
interface SnapshotStore<S> {
  getSnapshot: () => S;
  subscribe: (listener: () => void) => () => void;
}

type SnapshotOf<T> = T extends SnapshotStore<infer S> ? S : never;

/**
 * The React context that hands one store to the components below it, and its two hooks:
 * `useStore` (the store itself; throws, naming the hook and the context, without a provider
 * above) and `useValue` (a value derived from the store's snapshot; the component re-renders only
 * when it changes, so `select` must return a primitive or a stable value).
 */
export function storeContext<T extends SnapshotStore<SnapshotOf<T>>>(contextName: string, hookName: string) {
  const StoreContext: Context<T | null> = createContext<T | null>(null);
  StoreContext.displayName = contextName;
  function useStore(): T {
    const store = useContext(StoreContext);
    if (!store) throw new Error(`${hookName}: no ${contextName} provider above this component`);
    return store;
  }
  function useValue<V>(select: (snapshot: SnapshotOf<T>) => V): V {
    const store = useStore();
    return useStoreValue({ get: store.getSnapshot, subscribe: store.subscribe }, select);
  }
  return { Context: StoreContext, useStore, useValue };
}
