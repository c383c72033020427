import { useCallback } from 'react';
import type { Video } from '@wordcut/contracts';
import { isOutOfSync, paragraphSegments } from '@wordcut/editor-core';
import { toast } from '@wordcut/ui';
import { useEditorStore } from '../editing/store';
import { usePlaybackStore } from '../playback';
import { useWorkspaceStore } from '../workspace';

export const OUT_OF_SYNC_TITLE = 'Data out of sync';

/** A toast button that reloads the page (seed 000 §8 'Refresh Page'). */
export const REFRESH_ACTION = { label: 'Refresh Page', altText: 'Reload the page to load the latest data', onClick: () => window.location.reload() };

/**
 * Entering reorder mode (seed 000 §4 "Reorder mode"): refused with 'Data out of sync' when the
 * last paragraph ends more than 5 s after the video, and while an edit is still being saved (the
 * reorder names the transcript version it was made from).
 */
export function useReorderMode(video: Pick<Video, 'duration'>): () => void {
  const store = useEditorStore();
  const workspace = useWorkspaceStore();
  const playback = usePlaybackStore();
  return useCallback(() => {
    const s = store.getSnapshot();
    if (s.saving > 0) {
      toast({ title: 'Please wait', description: 'Your last edit is still being saved.' });
      return;
    }
    const duration = video.duration ?? playback.getSnapshot().duration;
    const { words, paragraphs } = s.content;
    if (isOutOfSync(paragraphs, duration)) {
      toast({
        title: OUT_OF_SYNC_TITLE,
        description: 'The transcript runs past the end of the video. Refresh the page to load the latest data.',
        variant: 'destructive',
        action: REFRESH_ACTION,
      });
      return;
    }
    if (paragraphs.length < 2) {
      toast({ title: 'Nothing to reorder', description: 'The transcript has a single paragraph.' });
      return;
    }
    const segments = paragraphSegments(words, paragraphs);
    workspace.update({ reorder: { original: segments, segments, words, paragraphs, transcriptVersion: s.version } });
  }, [store, workspace, playback, video.duration]);
}
