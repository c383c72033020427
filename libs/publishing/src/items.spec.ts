import fc from 'fast-check';
import {
  allSelected,
  cloneRefusal,
  cloneToggleVisible,
  confirmDisabled,
  confirmLabel,
  differsFromOriginal,
  exportableItems,
  exportsAvailable,
  formatDuration,
  initialSelection,
  itemKey,
  muteSegmentsText,
  publishButtonState,
  revertVisible,
  selectedItems,
  selectionError,
  toggleAll,
  toggleItem,
  type ExportableItem,
  type PublishClip,
  type PublishVideo,
} from './items';

const VIDEO_ID = '6f1c2f0e-8a43-4c4b-9a52-2f4d7f0b9a10';

const video = (over: Partial<PublishVideo> = {}): PublishVideo => ({
  id: VIDEO_ID,
  title: 'My talk',
  originalName: 'talk.mp4',
  videoChanged: true,
  vttChanged: true,
  wordBywordChanged: true,
  providerMainVideoUploadStatus: 'none',
  providerVttUploadStatus: 'none',
  providerSessionId: 'sess-1',
  providerIsClone: false,
  duration: 125,
  providerVideoId: 'pv-1',
  ...over,
});

const clip = (id: string, over: Partial<PublishClip> = {}): PublishClip => ({
  id,
  name: `Clip ${id}`,
  startTime: 10,
  endTime: 55,
  aspectRatio: '9:16',
  status: 'completed',
  providerUploadStatus: null,
  providerVideoId: null,
  ...over,
});

describe('formatDuration', () => {
  it('shows seconds under a minute, else minutes and seconds', () => {
    expect([0, 1, 45, 59.4, 59.5, 60, 125, 3725].map(formatDuration)).toEqual(['0s', '1s', '45s', '59s', '1m 0s', '1m 0s', '2m 5s', '62m 5s']);
  });

  it('reads 0s for negative or non-finite values', () => {
    expect([-3, NaN, Infinity].map(formatDuration)).toEqual(['0s', '0s', '0s']);
  });

  it('property: m and s round-trip to the rounded seconds', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1e6, noNaN: true }), (sec) => {
        const text = formatDuration(sec);
        const m = /^(?:(\d+)m )?(\d+)s$/.exec(text);
        expect(m).not.toBeNull();
        const minutes = Number(m![1] ?? 0);
        const seconds = Number(m![2]);
        expect(minutes * 60 + seconds).toBe(Math.round(sec));
        expect(seconds).toBeLessThan(60);
      }),
    );
  });
});

describe('exportableItems', () => {
  it('offers main video, subtitles and finished clips, in that order', () => {
    const items = exportableItems(video(), [clip('a'), clip('b', { aspectRatio: null, startTime: 0, endTime: 125 })], 2);
    expect(items).toEqual([
      {
        type: 'main_video',
        id: VIDEO_ID,
        name: 'My talk',
        description: '2 mute segments applied',
        duration: 125,
        aspectRatio: null,
        providerUploadStatus: 'none',
        providerVideoId: 'pv-1',
      },
      {
        type: 'vtt',
        id: VIDEO_ID,
        name: 'Subtitles',
        description: 'Captions (VTT) and word-by-word timing',
        duration: 125,
        aspectRatio: null,
        providerUploadStatus: 'none',
        providerVideoId: 'pv-1',
      },
      { type: 'clip', id: 'a', name: 'Clip a', description: '9:16 • 45s', duration: 45, aspectRatio: '9:16', providerUploadStatus: null, providerVideoId: null },
      { type: 'clip', id: 'b', name: 'Clip b', description: '16:9 • 2m 5s', duration: 125, aspectRatio: '16:9', providerUploadStatus: null, providerVideoId: null },
    ]);
  });

  it('describes the main video by its mute segments', () => {
    const desc = (n: number) => exportableItems(video(), [], n)[0]!.description;
    expect([0, 1, 2, 7].map(desc)).toEqual(['Video edits pending export', '1 mute segment applied', '2 mute segments applied', '7 mute segments applied']);
    expect(muteSegmentsText(1)).toBe('1 mute segment applied');
  });

  it('names the main video by title, else original name', () => {
    expect(exportableItems(video({ title: '  ' }), [], 0)[0]!.name).toBe('talk.mp4');
    expect(exportableItems(video({ title: null, originalName: null }), [], 0)[0]!.name).toBe('Main Video');
  });

  it('offers the main video only when changed and not uploaded', () => {
    const types = (v: PublishVideo) => exportableItems(v, [], 0).map((i) => i.type);
    expect(types(video({ videoChanged: false }))).toEqual(['vtt']);
    expect(types(video({ providerMainVideoUploadStatus: 'uploaded' }))).toEqual(['vtt']);
    expect(types(video({ providerMainVideoUploadStatus: 'failed' }))).toEqual(['main_video', 'vtt']);
  });

  it('offers the subtitles when the captions or the word timing changed and they are not uploaded', () => {
    const sub = (v: PublishVideo) => exportableItems(v, [], 0).find((i) => i.type === 'vtt');
    expect(sub(video({ vttChanged: false, wordBywordChanged: false }))).toBeUndefined();
    expect(sub(video({ providerVttUploadStatus: 'uploaded' }))).toBeUndefined();
    expect(sub(video({ wordBywordChanged: false }))?.description).toBe('Captions (VTT)');
    expect(sub(video({ vttChanged: false }))?.description).toBe('Word-by-word timing');
  });

  it('skips unfinished, failed and uploaded clips', () => {
    const clips = [
      clip('pending', { status: 'pending' }),
      clip('processing', { status: 'processing' }),
      clip('failed', { status: 'failed' }),
      clip('uploaded', { providerUploadStatus: 'uploaded', providerVideoId: 'pv-9' }),
      clip('upload-failed', { providerUploadStatus: 'failed', providerVideoId: 'pv-8' }),
      clip('done'),
    ];
    expect(exportableItems(video({ videoChanged: false, vttChanged: false, wordBywordChanged: false }), clips, 0).map((i) => i.id)).toEqual(['upload-failed', 'done']);
  });

  it('works with clip records that have no provider fields yet', () => {
    const bare: PublishClip = { id: 'x', name: 'X', startTime: 0, endTime: 5, aspectRatio: '1:1', status: 'completed' };
    expect(exportableItems(video({ videoChanged: false, vttChanged: false, wordBywordChanged: false }), [bare], 0)).toEqual([
      { type: 'clip', id: 'x', name: 'X', description: '1:1 • 5s', duration: 5, aspectRatio: '1:1', providerUploadStatus: null, providerVideoId: null },
    ]);
  });
});

describe('selection', () => {
  const items = exportableItems(
    video(),
    [clip('a'), clip('b', { providerUploadStatus: 'failed', providerVideoId: 'pv-b' })],
    0,
  );

  it('keys items by type and id, so main video and subtitles differ', () => {
    expect(items.map(itemKey)).toEqual([`main_video:${VIDEO_ID}`, `vtt:${VIDEO_ID}`, 'clip:a', 'clip:b']);
  });

  it('preselects everything offered except clips already uploaded with a provider video id', () => {
    const uploadedClip: ExportableItem = { ...items[2]!, id: 'c', providerUploadStatus: 'uploaded', providerVideoId: 'pv-c' };
    const uploadedNoId: ExportableItem = { ...items[2]!, id: 'd', providerUploadStatus: 'uploaded', providerVideoId: null };
    expect([...initialSelection([...items, uploadedClip, uploadedNoId])]).toEqual([`main_video:${VIDEO_ID}`, `vtt:${VIDEO_ID}`, 'clip:a', 'clip:b', 'clip:d']);
  });

  it('select-all selects everything, or clears when all are selected', () => {
    const all = toggleAll(items, new Set(['clip:a']));
    expect([...all]).toEqual(items.map(itemKey));
    expect(allSelected(items, all)).toBe(true);
    expect(toggleAll(items, all).size).toBe(0);
    expect(allSelected([], new Set())).toBe(false);
  });

  it('toggles one item without changing the input', () => {
    const before = new Set(['clip:a']);
    const after = toggleItem(before, { type: 'clip', id: 'b' });
    expect([...after]).toEqual(['clip:a', 'clip:b']);
    expect([...toggleItem(after, { type: 'clip', id: 'a' })]).toEqual(['clip:b']);
    expect([...before]).toEqual(['clip:a']);
  });

  it('lists the selected items in dialog order and ignores stale keys', () => {
    expect(selectedItems(items, new Set(['clip:b', 'clip:gone', `vtt:${VIDEO_ID}`])).map(itemKey)).toEqual([`vtt:${VIDEO_ID}`, 'clip:b']);
  });

  it('property: toggleAll twice from any selection ends empty or full, and is full after one toggle unless all were selected', () => {
    fc.assert(
      fc.property(fc.subarray(items.map(itemKey)), (keys) => {
        const sel = new Set(keys);
        const once = toggleAll(items, sel);
        if (keys.length === items.length) expect(once.size).toBe(0);
        else expect(allSelected(items, once)).toBe(true);
        expect(toggleAll(items, toggleAll(items, once)).size).toBe(once.size);
      }),
    );
  });
});

describe('buttons and rules', () => {
  it('needs a session id and a video id for exports', () => {
    expect(exportsAvailable(video())).toBe(true);
    expect(exportsAvailable(video({ providerSessionId: null }))).toBe(false);
    expect(exportsAvailable(video({ id: '' }))).toBe(false);
    expect(exportsAvailable(null)).toBe(false);
  });

  it('disables Publish while creating, with nothing pending, or while clips process', () => {
    expect(publishButtonState({ creating: false, pendingCount: 2, clipsProcessing: false })).toEqual({ disabled: false });
    expect(publishButtonState({ creating: true, pendingCount: 2, clipsProcessing: false })).toEqual({ disabled: true });
    expect(publishButtonState({ creating: false, pendingCount: 0, clipsProcessing: false })).toEqual({ disabled: true });
    expect(publishButtonState({ creating: false, pendingCount: 2, clipsProcessing: true })).toEqual({ disabled: true, tooltip: 'Waiting for clips to finish processing...' });
  });

  it('shows Revert only for a linked video with exports pending or history', () => {
    expect(revertVisible({ linkedToSession: true, pendingExports: 1, historyEntries: 0 })).toBe(true);
    expect(revertVisible({ linkedToSession: true, pendingExports: 0, historyEntries: 3 })).toBe(true);
    expect(revertVisible({ linkedToSession: true, pendingExports: false, historyEntries: true })).toBe(true);
    expect(revertVisible({ linkedToSession: true, pendingExports: 0, historyEntries: 0 })).toBe(false);
    expect(revertVisible({ linkedToSession: false, pendingExports: 4, historyEntries: 4 })).toBe(false);
  });

  it('shows Revert while the version differs from the original, also once it is published', () => {
    const published = video({ providerMainVideoUploadStatus: 'uploaded', providerVttUploadStatus: 'uploaded', mediaVersion: 'cut_1.mp4' });
    expect(exportableItems(published, [], 0)).toEqual([]);
    expect(differsFromOriginal(published)).toBe(true);
    expect(revertVisible({ linkedToSession: true, pendingExports: 0, historyEntries: 0, differsFromOriginal: differsFromOriginal(published) })).toBe(true);
    expect(differsFromOriginal(video({ videoChanged: false, vttChanged: false, wordBywordChanged: false, mediaVersion: 'original' }))).toBe(false);
  });

  it('after a revert of a published edit, offers the original for publishing (the provider holds other media and captions)', () => {
    const reverted = video({ videoChanged: false, vttChanged: false, wordBywordChanged: false, mediaVersion: 'original', providerMediaStale: true, providerCaptionsStale: true });
    expect(exportableItems(reverted, [], 0).map((i) => [i.type, i.description])).toEqual([
      ['main_video', 'Video edits pending export'],
      ['vtt', 'Captions (VTT) and word-by-word timing'],
    ]);
    // never published and reverted: nothing at the provider differs
    expect(exportableItems(video({ videoChanged: false, vttChanged: false, wordBywordChanged: false, providerMediaStale: false, providerCaptionsStale: false }), [], 0)).toEqual([]);
  });

  it('labels the confirm button', () => {
    expect(confirmLabel({ count: 1, cloning: false, exporting: false })).toBe('Publish 1 Item(s)');
    expect(confirmLabel({ count: 3, cloning: false, exporting: false })).toBe('Publish 3 Item(s)');
    expect(confirmLabel({ count: 3, cloning: true, exporting: false })).toBe('Cloning video...');
    expect(confirmLabel({ count: 3, cloning: false, exporting: true })).toBe('Publishing...');
  });

  it('requires a selection', () => {
    expect(selectionError(0)).toBe('Please select at least one item to export');
    expect(selectionError(1)).toBeNull();
  });

  it('disables confirm with no selection, over quota, exporting or cloning', () => {
    const base = { count: 2, quotaExceeded: false, exporting: false, cloning: false };
    expect(confirmDisabled(base)).toBe(false);
    expect([{ count: 0 }, { quotaExceeded: true }, { exporting: true }, { cloning: true }].map((o) => confirmDisabled({ ...base, ...o }))).toEqual([true, true, true, true]);
  });

  it('hides the clone toggle and refuses cloning for a clone; refuses without a video id', () => {
    expect(cloneToggleVisible(video())).toBe(true);
    expect(cloneToggleVisible(video({ providerIsClone: true }))).toBe(false);
    expect(cloneRefusal(video({ providerIsClone: true }))).toEqual({ title: 'Cannot clone', description: 'This video is already a clone' });
    expect(cloneRefusal(video({ id: '' }))).toEqual({ title: 'Clone failed', description: 'Video ID not available' });
    expect(cloneRefusal(null)).toEqual({ title: 'Clone failed', description: 'Video ID not available' });
    expect(cloneRefusal(video())).toBeNull();
  });
});
