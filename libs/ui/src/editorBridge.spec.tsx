/** @jest-environment jsdom */
import { act, renderHook } from '@testing-library/react';
import { EMPTY_EDITOR_STATE, editorBridge, useEditorBridge } from './editorBridge';

afterEach(() => editorBridge.reset());

it('starts empty and merges patches', () => {
  expect(editorBridge.get()).toEqual({ videoId: null, pendingMutes: [], historyEntries: 0 });
  editorBridge.set({ videoId: 'v1' });
  editorBridge.set({ historyEntries: 3 });
  expect(editorBridge.get()).toEqual({ videoId: 'v1', pendingMutes: [], historyEntries: 3 });
});

it('copies mutes to plain records (the editor marks carry more)', () => {
  const mark = { id: 'm1', wordIndices: [1, 2], text: 'uh um', startTime: 1.5, endTime: 2.25, level: 'whisper' as const };
  editorBridge.set({ pendingMutes: [mark] });
  expect(editorBridge.get().pendingMutes).toEqual([{ startTime: 1.5, endTime: 2.25, level: 'whisper' }]);
});

it('notifies only on real changes, and keeps the mutes array when its content is the same', () => {
  const listener = jest.fn();
  const unsubscribe = editorBridge.subscribe(listener);
  editorBridge.set({ videoId: 'v1', pendingMutes: [{ startTime: 0, endTime: 1, level: 'silence' }] });
  const mutes = editorBridge.get().pendingMutes;
  editorBridge.set({ videoId: 'v1', pendingMutes: [{ startTime: 0, endTime: 1, level: 'silence' }] });
  expect(listener).toHaveBeenCalledTimes(1);
  editorBridge.set({ historyEntries: 2, pendingMutes: [{ startTime: 0, endTime: 1, level: 'silence' }] });
  expect(listener).toHaveBeenCalledTimes(2);
  expect(editorBridge.get().pendingMutes).toBe(mutes);
  unsubscribe();
  editorBridge.set({ videoId: 'v2' });
  expect(listener).toHaveBeenCalledTimes(2);
});

it('reset() goes back to no video', () => {
  editorBridge.set({ videoId: 'v1', historyEntries: 4 });
  editorBridge.reset();
  expect(editorBridge.get()).toBe(EMPTY_EDITOR_STATE);
});

it('useEditorBridge re-renders the reader when the editor writes', () => {
  const { result } = renderHook(() => useEditorBridge());
  expect(result.current.videoId).toBeNull();
  act(() => editorBridge.set({ videoId: 'v9', historyEntries: 1, pendingMutes: [{ startTime: 3, endTime: 4, level: 'background' }] }));
  expect(result.current).toEqual({ videoId: 'v9', historyEntries: 1, pendingMutes: [{ startTime: 3, endTime: 4, level: 'background' }] });
  act(() => editorBridge.reset());
  expect(result.current.videoId).toBeNull();
});
