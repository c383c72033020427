/** @jest-environment jsdom */
import { act, renderHook } from '@testing-library/react';
import { createStore, useStoreValue } from './store';

describe('createStore', () => {
  it('replaces the value and tells every listener, only when it is a different value', () => {
    const store = createStore({ count: 0 });
    const listener = jest.fn();
    const unsubscribe = store.subscribe(listener);
    const first = store.get();
    store.set(first);
    expect(listener).not.toHaveBeenCalled();
    store.set({ count: 1 });
    expect(store.get()).toEqual({ count: 1 });
    expect(listener).toHaveBeenCalledTimes(1);
    unsubscribe();
    store.set({ count: 2 });
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('a listener may unsubscribe another while they run', () => {
    const store = createStore(0);
    const calls: string[] = [];
    let stopSecond = () => {};
    store.subscribe(() => {
      calls.push('first');
      stopSecond();
    });
    stopSecond = store.subscribe(() => calls.push('second'));
    store.set(1);
    store.set(2);
    expect(calls).toEqual(['first', 'second', 'first']);
  });
});

describe('useStoreValue', () => {
  it('re-renders only when the selected part changes', () => {
    const store = createStore({ a: 1, b: 1 });
    let renders = 0;
    const { result } = renderHook(() => {
      renders += 1;
      return useStoreValue(store, (value) => value.a);
    });
    expect(result.current).toBe(1);
    const before = renders;
    act(() => store.set({ a: 1, b: 2 }));
    expect(renders).toBe(before);
    act(() => store.set({ a: 5, b: 2 }));
    expect(result.current).toBe(5);
    expect(renders).toBe(before + 1);
  });
});
