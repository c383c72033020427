import type { ExportItemType, ExportRequest } from '@wordcut/contracts';
import { canonicalJson } from '@wordcut/publishing';
import { createHash } from 'node:crypto';
import type { ExportItemRow, NewExportItem } from './export-item-store';
import type { ExportNames } from './export-job-store';

/**
 * Stripe-style request fingerprint: the same idempotency key may only come back with the same
 * request. The key itself and the token are left out (the client refreshes its token every
 * 10 minutes, so a retried request legitimately carries a new one); the request is the parsed
 * one (defaults applied), so `{}` and its defaults count as the same request.
 */
export function requestFingerprint(request: ExportRequest): string {
  const { idempotencyKey: _key, token: _token, ...rest } = request;
  return createHash('sha256').update(canonicalJson(rest)).digest('hex');
}

/** The items a request exports, in upload order: main video, subtitles (VTT + word-by-word), clips. */
export function planItems(request: ExportRequest, names: ExportNames): NewExportItem[] {
  const items: NewExportItem[] = [];
  const add = (type: ExportItemType, itemId: string, name: string) =>
    items.push({ type, itemId, name, position: items.length, status: 'pending', bytes: null, providerVideoId: null, uploadId: null, providerConfirmed: false });
  if (request.saveMainVideo) add('main_video', 'main_video', names.mainVideo);
  if (request.saveVtt) {
    add('vtt', 'vtt', `${names.mainVideo} (subtitles)`);
    add('word_by_word', 'word_by_word', `${names.mainVideo} (word-by-word timing)`);
  }
  for (const c of request.clips) add('clip', c.clipId, names.clips[c.clipId] ?? `Clip ${c.clipIndex + 1}`);
  return items;
}

/**
 * Items as the user counts them in "Publish N Item(s)": the subtitles are one
 * item although they travel as two files (VTT and word-by-word timing).
 */
export function userItemCount(request: ExportRequest): number {
  return (request.saveMainVideo ? 1 : 0) + (request.saveVtt ? 1 : 0) + request.clips.length;
}

/**
 * A retry's items: what the failed job already uploaded is copied as uploaded (never sent
 * twice), everything else starts over as pending.
 */
export function retryItems(failed: ExportItemRow[]): NewExportItem[] {
  return failed.map((i) =>
    i.status === 'uploaded'
      ? { type: i.type, itemId: i.itemId, name: i.name, position: i.position, status: 'uploaded', bytes: i.bytes, providerVideoId: i.providerVideoId, uploadId: i.uploadId, providerConfirmed: i.providerConfirmed }
      : { type: i.type, itemId: i.itemId, name: i.name, position: i.position, status: 'pending', bytes: null, providerVideoId: null, uploadId: null, providerConfirmed: false },
  );
}

/** current_step while an item uploads (the progress dialog shows it). */
export function uploadStep(type: ExportItemType, name: string): string {
  switch (type) {
    case 'main_video':
      return 'Uploading main video...';
    case 'vtt':
      return 'Uploading subtitles...';
    case 'word_by_word':
      return 'Uploading word-by-word timing...';
    case 'clip':
      return `Uploading clip "${name}"...`;
  }
}

/** current_step while the gateway renders the mute segments the current version lacks (the progress dialog shows it). */
export function muteStep(segments: number): string {
  return `Applying ${segments} mute segment(s)...`;
}

/** Upload progress in percent (0-100) from bytes; an export of empty files is done when all are. */
export function uploadProgress(doneBytes: number, totalBytes: number): number {
  if (totalBytes <= 0) return 0;
  return Math.max(0, Math.min(100, (doneBytes / totalBytes) * 100));
}
