import type { ClipItem } from './api';

/** Clip statuses by id, as the list last showed them. */
export type SeenClips = ReadonlyMap<string, ClipItem['status']>;

/** Clips that finished since the list was last seen: pending or processing then, completed now. */
export function newlyFinished(seen: SeenClips, clips: readonly ClipItem[]): ClipItem[] {
  return clips.filter((clip) => {
    const before = seen.get(clip.id);
    return clip.status === 'completed' && (before === 'pending' || before === 'processing');
  });
}

export function seenClips(clips: readonly ClipItem[]): SeenClips {
  return new Map(clips.map((clip) => [clip.id, clip.status]));
}

/** After a delete, the row whose Delete button takes focus: the one now at the deleted row's place, else the last; null when none is left. */
export function focusIndexAfterDelete(deletedIndex: number, remaining: number): number | null {
  if (remaining <= 0) return null;
  return Math.min(Math.max(0, deletedIndex), remaining - 1);
}
