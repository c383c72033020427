import { useEffect, useId } from 'react';
import { previewButtonState, segmentsChanged, validatePreviewSegments } from '@wordcut/editor-core';
import { Tooltip, toast } from '@wordcut/ui';
import { usePlayback, usePlaybackStore } from '../shared/playback';
import { formatTimestamp } from '../shared/format';
import { useWorkspace, useWorkspaceStore } from '../shared/workspace';

/**
 * The reorder preview card, under the player: in reorder mode, plays the paragraphs in their new
 * order without rendering anything. The player's preview controller does the jumping; this card
 * starts and stops it and shows where it is.
 */
export function ReorderPreviewCard() {
  const workspace = useWorkspaceStore();
  const playback = usePlaybackStore();
  const reorder = useWorkspace((s) => s.reorder);
  const preview = useWorkspace((s) => s.reorderPreview);
  const duration = usePlayback((s) => s.duration);
  const titleId = useId();

  // 'Preview mode deactivated' whenever the preview ends: finished, stopped, order restored, mode left
  useEffect(() => {
    let was = workspace.getSnapshot().reorderPreview !== null;
    return workspace.subscribe(() => {
      const now = workspace.getSnapshot().reorderPreview !== null;
      if (was && !now) toast({ title: 'Preview mode deactivated' });
      was = now;
    });
  }, [workspace]);

  if (!reorder) return null;
  const changed = segmentsChanged(reorder.original, reorder.segments);
  const ready = duration > 0;
  const button = previewButtonState(changed, ready);

  const startPreview = () => {
    if (!playback.isReady()) {
      toast({ title: 'Preview unavailable', description: duration > 0 ? 'Please wait for video to load completely' : 'Video player not ready', variant: 'destructive' });
      return;
    }
    const problem = validatePreviewSegments(reorder.segments, playback.getSnapshot().duration);
    if (problem) {
      toast({ title: 'Cannot preview segments', description: problem, variant: 'destructive' });
      return;
    }
    const restoreTime = playback.getSnapshot().currentTime;
    workspace.update({ reorderPreview: { index: 0, restoreTime } });
    playback.seek(reorder.segments[0]!.start);
    toast({ title: 'Preview mode activated', description: 'Playing the paragraphs in their new order.' });
    playback.play().catch(() => toast({ title: 'Playback failed', description: 'Unable to start video playback', variant: 'destructive' }));
  };

  const stopPreview = () => {
    const current = workspace.getSnapshot().reorderPreview;
    playback.pause();
    workspace.update({ reorderPreview: null });
    if (current) playback.seek(current.restoreTime);
  };

  const current = preview ? reorder.segments[preview.index] : undefined;
  return (
    <section className="wc-card wc-reorder-preview" aria-labelledby={titleId} data-testid="reorder-preview-card" data-active={preview ? 'true' : 'false'}>
      <h2 id={titleId} className="wc-card__title">
        Reorder preview
      </h2>
      {preview && current ? (
        <>
          <p aria-live="polite" data-testid="reorder-preview-status">
            Playing segment {preview.index + 1} of {reorder.segments.length} ({formatTimestamp(current.start)}–{formatTimestamp(current.end)})
          </p>
          <button type="button" className="wc-button" onClick={stopPreview} data-testid="stop-reorder-preview">
            Stop Preview
          </button>
        </>
      ) : (
        <>
          <p className="wc-muted">Hear the new order before rendering it.</p>
          {button.disabled ? (
            <Tooltip content={button.reason ?? ''}>
              <button type="button" className="wc-button" aria-disabled="true" data-testid="start-reorder-preview">
                Preview New Order
              </button>
            </Tooltip>
          ) : (
            <button type="button" className="wc-button wc-button--primary" onClick={startPreview} data-testid="start-reorder-preview">
              Preview New Order
            </button>
          )}
          {button.reason ? (
            <p className="wc-muted wc-small" data-testid="reorder-preview-reason">
              {button.reason}
            </p>
          ) : null}
        </>
      )}
    </section>
  );
}
