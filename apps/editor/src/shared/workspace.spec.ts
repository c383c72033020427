/** @jest-environment jsdom */
import { createElement } from 'react';
import type { ReactNode } from 'react';
import { act, renderHook } from '@testing-library/react';
import type { PendingMute, ReorderSegment } from '@wordcut/editor-core';
import { WorkspaceContext, WorkspaceStore, useWorkspace, useWorkspaceStore } from './workspace';
import type { PendingSilence, ReorderState } from './workspace';

/** The workspace store's rules: previews that lose their subject turn off. */

const mute = (startTime: number, endTime: number): PendingMute => ({
  id: `m${startTime}`,
  wordIndices: [Math.round(startTime)],
  startTime,
  endTime,
  text: 'um',
  level: 'whisper',
});

const silence = (startTime: number, endTime: number, recommendation: string): PendingSilence => ({ startTime, endTime, recommendation });

const segment = (k: number, start: number, end: number): ReorderSegment => ({ id: `p${k}`, start, end, paragraphId: k, wordIndices: [k], type: 'paragraph' });
const A = segment(0, 0, 2);
const B = segment(1, 2, 4);
const C = segment(2, 4, 6);

const reorder = (segments: ReorderSegment[]): ReorderState => ({ original: [A, B, C], segments, words: [], paragraphs: [], transcriptVersion: 3 });

function watched() {
  const store = new WorkspaceStore();
  const listener = jest.fn();
  store.subscribe(listener);
  return { store, listener };
}

describe('WorkspaceStore', () => {
  it('starts with nothing pending and every preview off', () => {
    expect(new WorkspaceStore().getSnapshot()).toEqual({
      pendingCuts: [],
      pendingMutes: [],
      pendingSilences: [],
      mutePreview: false,
      silencePreview: false,
      range: null,
      selectionRange: null,
      reorder: null,
      reorderPreview: null,
      reframe: null,
      reframeZoom: null,
      clipDialog: null,
      incomingVersion: null,
      versionMove: null,
    });
  });

  it('applies a patch as a new snapshot and tells every listener', () => {
    const { store, listener } = watched();
    const second = jest.fn();
    store.subscribe(second);
    const before = store.getSnapshot();
    store.update({ range: { start: 1, end: 2 }, reframe: '9:16' });
    const after = store.getSnapshot();
    expect(after).not.toBe(before);
    expect(before.range).toBeNull(); // the old snapshot is left as it was
    expect(after).toMatchObject({ range: { start: 1, end: 2 }, reframe: '9:16' });
    expect(listener).toHaveBeenCalledTimes(1);
    expect(second).toHaveBeenCalledTimes(1);
  });

  it('unsubscribed listeners are not called', () => {
    const store = new WorkspaceStore();
    const listener = jest.fn();
    const unsubscribe = store.subscribe(listener);
    unsubscribe();
    store.update({ reframe: '1:1' });
    expect(listener).not.toHaveBeenCalled();
  });

  describe('no-op updates', () => {
    it('an empty patch, or the same values again, calls no listener and keeps the snapshot', () => {
      const { store, listener } = watched();
      const range = { start: 1, end: 2 };
      store.update({ range, reframe: '1:1' });
      listener.mockClear();
      const snapshot = store.getSnapshot();
      store.update({});
      store.update({ range, reframe: '1:1' });
      store.update({ pendingCuts: snapshot.pendingCuts, reorder: null, clipDialog: null });
      expect(listener).not.toHaveBeenCalled();
      expect(store.getSnapshot()).toBe(snapshot);
    });

    it('switching on a preview that has nothing to preview changes nothing', () => {
      const { store, listener } = watched();
      const snapshot = store.getSnapshot();
      store.update({ mutePreview: true });
      store.update({ silencePreview: true, pendingSilences: snapshot.pendingSilences });
      store.update({ reorderPreview: { index: 0, restoreTime: 5 } }); // not in reorder mode
      expect(listener).not.toHaveBeenCalled();
      expect(store.getSnapshot()).toBe(snapshot);
    });
  });

  describe('mute preview', () => {
    it('stays on while mutes remain and turns off when they are cleared', () => {
      const { store, listener } = watched();
      store.update({ pendingMutes: [mute(1, 2), mute(3, 4)], mutePreview: true });
      expect(store.getSnapshot().mutePreview).toBe(true);
      store.update({ pendingMutes: [mute(3, 4)] });
      expect(store.getSnapshot().mutePreview).toBe(true);
      listener.mockClear();
      store.update({ pendingMutes: [] });
      expect(store.getSnapshot().mutePreview).toBe(false);
      expect(listener).toHaveBeenCalledTimes(1);
    });

    it('cannot be switched on without mutes', () => {
      const store = new WorkspaceStore();
      store.update({ mutePreview: true });
      expect(store.getSnapshot().mutePreview).toBe(false);
    });
  });

  describe('silence preview', () => {
    it("stays on while a 'remove' silence remains, and turns off when none does", () => {
      const store = new WorkspaceStore();
      store.update({ pendingSilences: [silence(1, 2, 'remove'), silence(3, 4, 'keep')], silencePreview: true });
      expect(store.getSnapshot().silencePreview).toBe(true);
      store.update({ pendingSilences: [silence(3, 4, 'keep'), silence(5, 6, 'shorten')] });
      expect(store.getSnapshot().silencePreview).toBe(false);
    });

    it('turns off when the silences are cleared', () => {
      const store = new WorkspaceStore();
      store.update({ pendingSilences: [silence(1, 2, 'remove')], silencePreview: true });
      store.update({ pendingSilences: [] });
      expect(store.getSnapshot().silencePreview).toBe(false);
    });

    it("cannot be switched on with only silences not marked 'remove'", () => {
      const store = new WorkspaceStore();
      store.update({ pendingSilences: [silence(1, 2, 'keep')] });
      store.update({ silencePreview: true });
      expect(store.getSnapshot().silencePreview).toBe(false);
    });
  });

  describe('reorder preview', () => {
    const preview = { index: 1, restoreTime: 7.5 };

    it('runs while the order differs from the original', () => {
      const store = new WorkspaceStore();
      store.update({ reorder: reorder([B, A, C]), reorderPreview: preview });
      expect(store.getSnapshot().reorderPreview).toEqual(preview);
      // moving on to another changed order keeps it
      store.update({ reorder: reorder([C, B, A]) });
      expect(store.getSnapshot().reorderPreview).toEqual(preview);
    });

    it('is cleared when reorder mode ends', () => {
      const { store, listener } = watched();
      store.update({ reorder: reorder([B, A, C]), reorderPreview: preview });
      listener.mockClear();
      store.update({ reorder: null });
      expect(store.getSnapshot().reorderPreview).toBeNull();
      expect(listener).toHaveBeenCalledTimes(1);
    });

    it('is cleared when the segments return to the original order', () => {
      const store = new WorkspaceStore();
      store.update({ reorder: reorder([B, A, C]), reorderPreview: preview });
      store.update({ reorder: reorder([A, B, C]) });
      expect(store.getSnapshot().reorder?.segments).toEqual([A, B, C]);
      expect(store.getSnapshot().reorderPreview).toBeNull();
    });

    it('cannot start on an unchanged order', () => {
      const store = new WorkspaceStore();
      store.update({ reorder: reorder([A, B, C]) });
      store.update({ reorderPreview: preview });
      expect(store.getSnapshot().reorderPreview).toBeNull();
    });

    it('other updates leave a running preview alone', () => {
      const store = new WorkspaceStore();
      store.update({ reorder: reorder([B, A, C]), reorderPreview: preview });
      store.update({ pendingCuts: [], reframe: '4:5' });
      expect(store.getSnapshot().reorderPreview).toEqual(preview);
    });
  });
});

describe('useWorkspace', () => {
  function wrapperFor(store: WorkspaceStore) {
    return ({ children }: { children: ReactNode }) => createElement(WorkspaceContext.Provider, { value: store }, children);
  }

  it('re-renders with the selected value when it changes, and not for other changes', () => {
    const store = new WorkspaceStore();
    let renders = 0;
    const { result } = renderHook(
      () => {
        renders += 1;
        return useWorkspace((s) => s.reframe);
      },
      { wrapper: wrapperFor(store) },
    );
    expect(result.current).toBeNull();
    const settled = renders;
    act(() => store.update({ range: { start: 1, end: 2 } }));
    expect(renders).toBe(settled);
    act(() => store.update({ reframe: '16:9' }));
    expect(result.current).toBe('16:9');
    expect(renders).toBe(settled + 1);
  });

  it('useWorkspaceStore gives the provided store, and throws without a provider', () => {
    const store = new WorkspaceStore();
    expect(renderHook(() => useWorkspaceStore(), { wrapper: wrapperFor(store) }).result.current).toBe(store);
    const spy = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      expect(() => renderHook(() => useWorkspaceStore())).toThrow('useWorkspaceStore: no WorkspaceContext provider above this component');
    } finally {
      spy.mockRestore();
    }
  });
});
