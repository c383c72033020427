import { exportRequestSchema, type ExportRequestInput } from '@wordcut/contracts';
import { randomUUID } from 'node:crypto';
import { muteStep, planItems, requestFingerprint, retryItems, uploadProgress, uploadStep, userItemCount } from './export-plan';
import type { ExportItemRow } from './export-item-store';

const videoId = randomUUID();
const clipA = randomUUID();
const clipB = randomUUID();
const input = (over: Partial<ExportRequestInput> = {}): ExportRequestInput => ({
  videoId,
  sessionId: 'sess-1',
  saveMainVideo: true,
  saveVtt: true,
  clips: [
    { clipId: clipA, clipIndex: 0, aspectRatio: '9:16', duration: 12 },
    { clipId: clipB, clipIndex: 1, duration: 30 },
  ],
  idempotencyKey: 'key-0001',
  ...over,
});
const parse = (over: Partial<ExportRequestInput> = {}) => exportRequestSchema.parse(input(over));
const names = { mainVideo: 'My talk', clips: { [clipA]: 'Intro' } };

describe('requestFingerprint', () => {
  it('ignores the idempotency key, the token and key order, and treats defaults as given', () => {
    const a = parse();
    expect(requestFingerprint(parse({ idempotencyKey: 'another-key', token: 'tok.en' }))).toBe(requestFingerprint(a));
    const reordered = exportRequestSchema.parse(Object.fromEntries(Object.entries(input()).reverse()));
    expect(requestFingerprint(reordered)).toBe(requestFingerprint(a));
    expect(requestFingerprint(parse({ mainVideoEdits: { muteSegments: [], captionsEnabled: false, effectsApplied: [] } }))).toBe(requestFingerprint(a));
  });

  it('differs when anything exported differs', () => {
    const base = requestFingerprint(parse());
    expect(requestFingerprint(parse({ saveVtt: false }))).not.toBe(base);
    expect(requestFingerprint(parse({ mainVideoEdits: { muteSegments: [{ start: 1, end: 2 }] } }))).not.toBe(base);
    expect(requestFingerprint(parse({ clips: [] }))).not.toBe(base);
    expect(base).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('planItems', () => {
  it('lists main video, VTT, word-by-word and clips in upload order, naming unnamed clips by index', () => {
    expect(planItems(parse(), names).map((i) => [i.type, i.itemId, i.name, i.position, i.status])).toEqual([
      ['main_video', 'main_video', 'My talk', 0, 'pending'],
      ['vtt', 'vtt', 'My talk (subtitles)', 1, 'pending'],
      ['word_by_word', 'word_by_word', 'My talk (word-by-word timing)', 2, 'pending'],
      ['clip', clipA, 'Intro', 3, 'pending'],
      ['clip', clipB, 'Clip 2', 4, 'pending'],
    ]);
    expect(planItems(parse({ saveMainVideo: false, saveVtt: false }), names).map((i) => i.type)).toEqual(['clip', 'clip']);
  });

  it('counts the subtitles as one item, as the dialog does', () => {
    expect(userItemCount(parse())).toBe(4);
    expect(userItemCount(parse({ saveMainVideo: false, clips: [] }))).toBe(1);
  });
});

describe('retryItems', () => {
  it('keeps what was uploaded and resets everything else to pending', () => {
    const row = (over: Partial<ExportItemRow>): ExportItemRow => ({
      jobId: 'export_1',
      type: 'main_video',
      itemId: 'main_video',
      position: 0,
      name: 'My talk',
      status: 'pending',
      bytes: null,
      providerVideoId: null,
      uploadId: null,
      providerConfirmed: false,
      error: null,
      attempts: 0,
      uploadSession: null,
      ...over,
    });
    const out = retryItems([
      row({ status: 'uploaded', bytes: 100, uploadId: 'up_1', providerVideoId: 'pv_1', providerConfirmed: true, attempts: 2 }),
      row({ type: 'clip', itemId: clipA, position: 1, status: 'failed', bytes: 50, uploadId: 'up_2', error: 'boom', attempts: 3, uploadSession: { uri: 'http://p/uploads/resumable/up_2', sha256: 'ab' } }),
    ]);
    expect(out).toEqual([
      { type: 'main_video', itemId: 'main_video', name: 'My talk', position: 0, status: 'uploaded', bytes: 100, providerVideoId: 'pv_1', uploadId: 'up_1', providerConfirmed: true },
      { type: 'clip', itemId: clipA, name: 'My talk', position: 1, status: 'pending', bytes: null, providerVideoId: null, uploadId: null, providerConfirmed: false },
    ]);
  });
});

describe('texts and progress', () => {
  it('names the step of each item and of the mute render', () => {
    expect(uploadStep('main_video', 'x')).toBe('Uploading main video...');
    expect(uploadStep('vtt', 'x')).toBe('Uploading subtitles...');
    expect(uploadStep('word_by_word', 'x')).toBe('Uploading word-by-word timing...');
    expect(uploadStep('clip', 'Intro')).toBe('Uploading clip "Intro"...');
    expect(muteStep(3)).toBe('Applying 3 mute segment(s)...');
  });

  it('is bytes done over bytes total, within 0-100', () => {
    expect(uploadProgress(0, 200)).toBe(0);
    expect(uploadProgress(50, 200)).toBe(25);
    expect(uploadProgress(300, 200)).toBe(100);
    expect(uploadProgress(0, 0)).toBe(0);
  });
});
