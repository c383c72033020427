import type { ReorderBody } from '@wordcut/contracts';
import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import {
  DndContext,
  KeyboardSensor,
  PointerSensor,
  closestCenter,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import type { Announcements, DragEndEvent } from '@dnd-kit/core';
import { SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import type { Video } from '@wordcut/contracts';
import { moveItem, paragraphPreviewText, reorderPayload, segmentsChanged } from '@wordcut/editor-core';
import type { ReorderSegment } from '@wordcut/editor-core';
import { apiJson, describeError, isApiError, toast } from '@wordcut/ui';
import { JobEstimateLine } from '../shared/jobEstimate';
import { ConfirmDialog } from '../shared/dialogs';
import { useJobs } from '../jobs/jobRunner';
import { useRefreshVideo } from '../jobs/refresh';
import { JOB_SPECS } from '../jobs/specs';
import { usePlaybackStore } from '../shared/playback';
import { formatTimestamp } from '../shared/format';
import { useWorkspace, useWorkspaceStore } from '../shared/workspace';
import type { ReorderState } from '../shared/workspace';
import { REFRESH_ACTION } from '../shared/refreshPage';

/** After a reorder completes: reorder mode exits, data is refreshed and the player goes back to 0 (paused) after this long. */
export const REORDER_EXIT_DELAY_MS = 2000;

export function startReorder(videoId: string, reorder: ReorderState): Promise<{ jobId: string }> {
  const payload = reorderPayload(reorder.paragraphs, reorder.segments);
  return apiJson(`/api/videos/${encodeURIComponent(videoId)}/reorder`, {
    method: 'POST',
    json: { ...payload, transcriptVersion: reorder.transcriptVersion } satisfies ReorderBody,
  });
}

const nextFrame = () => new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));

/** Leaving reorder mode gives focus back to the button that entered it, once the editor shows again. */
export function focusReorderButton(): void {
  requestAnimationFrame(() => document.querySelector<HTMLElement>('[data-testid="reorder-segments"]')?.focus());
}

/** What screen readers hear after an arrow moves a paragraph. */
export function movedAnnouncement(paragraph: number, position: number, count: number): string {
  return `Paragraph ${paragraph + 1} moved to position ${position} of ${count}.`;
}

/**
 * Reorder mode: the 'Apply Reorder' / 'Cancel' banner and the paragraphs as a sortable list with
 * drag handles (dnd-kit: pointer and keyboard dragging with screen-reader announcements), number
 * badges and up/down arrows; applying asks for confirmation, then runs the reorder job under the
 * page's overlay.
 */
export function ReorderPanel({ video }: { video: Video }) {
  const workspace = useWorkspaceStore();
  const reorder = useWorkspace((s) => s.reorder);
  const previewing = useWorkspace((s) => s.reorderPreview !== null);
  const playback = usePlaybackStore();
  const runner = useJobs();
  const refresh = useRefreshVideo(video.id);
  const [confirming, setConfirming] = useState(false);
  const [starting, setStarting] = useState(false);
  const [announcement, setAnnouncement] = useState('');
  const instructionsId = useId();
  const panelRef = useRef<HTMLDivElement>(null);

  // entering reorder mode: focus goes to the first paragraph's handle
  useEffect(() => {
    panelRef.current?.querySelector<HTMLElement>('[data-testid="reorder-handle"]')?.focus();
  }, []);

  const setSegments = useCallback(
    (segments: ReorderSegment[]) => {
      const current = workspace.getSnapshot().reorder;
      if (current) workspace.update({ reorder: { ...current, segments } });
    },
    [workspace],
  );

  const cancel = () => {
    const { reorderPreview } = workspace.getSnapshot();
    if (reorderPreview) {
      playback.pause();
      playback.seek(reorderPreview.restoreTime);
    }
    workspace.update({ reorder: null });
    focusReorderButton();
  };

  const apply = () => {
    if (!reorder) return;
    if (!segmentsChanged(reorder.original, reorder.segments)) {
      toast({ title: 'No changes detected', description: 'Drag paragraphs into a new order first.' });
      return;
    }
    setConfirming(true);
  };

  const start = async () => {
    setConfirming(false);
    const current = workspace.getSnapshot().reorder;
    if (!current || runner.job) return;
    if (workspace.getSnapshot().reorderPreview) {
      playback.pause();
      workspace.update({ reorderPreview: null });
    }
    setStarting(true);
    try {
      const { jobId } = await startReorder(video.id, current);
      runner.start({
        ...JOB_SPECS.reorder!,
        jobId,
        onCompleted: () => {
          setTimeout(() => {
            workspace.update({ reorder: null });
            focusReorderButton();
            refresh()
              .catch(() => toast({ title: 'Failed to refresh data', description: 'Please refresh the page to see updated content.', variant: 'destructive' }))
              .then(async () => {
                // the new render's source is in the page: back to its start, paused (no autoplay)
                await nextFrame();
                await nextFrame();
                playback.pause();
                playback.seek(0);
              })
              .catch(() => undefined);
          }, REORDER_EXIT_DELAY_MS);
        },
      });
    } catch (error) {
      const body = isApiError(error) ? (error.body as { code?: string; message?: string } | undefined) : undefined;
      if (body?.code === 'OUTDATED_TRANSCRIPT') {
        toast({ title: 'Transcript data is outdated', description: body.message ?? 'Please refresh the page and try again.', variant: 'destructive', action: REFRESH_ACTION });
      } else if (body?.message === 'No changes detected') {
        toast({ title: 'No changes detected', description: 'Drag paragraphs into a new order first.' });
      } else {
        toast({ title: 'Failed to reorder video', description: body?.message ?? describeError(error), variant: 'destructive' });
      }
    } finally {
      setStarting(false);
    }
  };

  /** Arrow moves: focus follows the moved paragraph and its new position is announced. */
  const moveBy = (from: number, to: number, arrow: 'up' | 'down') => {
    const current = workspace.getSnapshot().reorder;
    if (!current || to < 0 || to >= current.segments.length) return;
    const segment = current.segments[from]!;
    setSegments(moveItem(current.segments, from, to));
    setAnnouncement(movedAnnouncement(segment.paragraphId, to + 1, current.segments.length));
    requestAnimationFrame(() => {
      const item = panelRef.current?.querySelector<HTMLElement>(`[data-testid="reorder-item"][data-paragraph="${segment.paragraphId}"]`);
      const button = item?.querySelector<HTMLButtonElement>(`[data-testid="reorder-${arrow}"]`);
      (button && !button.disabled ? button : item?.querySelector<HTMLElement>('[data-testid="reorder-handle"]'))?.focus();
    });
  };

  if (!reorder) return null;
  const changed = segmentsChanged(reorder.original, reorder.segments);
  return (
    <div className="wc-reorder" data-testid="reorder-panel" ref={panelRef}>
      <div className="wc-pending-bar wc-reorder__banner" role="region" aria-label="Reorder mode">
        <strong>Reorder mode</strong>
        <span className="wc-muted">{changed ? 'Paragraphs moved: apply to render the new order.' : 'Drag paragraphs, or use the arrows, to change their order.'}</span>
        <button type="button" className="wc-button wc-button--primary" onClick={apply} disabled={starting || runner.job !== null} data-testid="apply-reorder">
          Apply Reorder
        </button>
        <button type="button" className="wc-button" onClick={cancel} data-testid="cancel-reorder">
          Cancel
        </button>
      </div>
      <p id={instructionsId} className="wc-visually-hidden">
        To move a paragraph with the keyboard, focus its drag handle and press Space, move it with the arrow keys, then press Space again to drop it or Escape to cancel.
      </p>
      <p className="wc-visually-hidden" aria-live="polite" data-testid="reorder-announcement">
        {announcement}
      </p>
      <SortableParagraphs reorder={reorder} onChange={setSegments} onMove={moveBy} previewing={previewing} instructionsId={instructionsId} />
      <ConfirmDialog
        open={confirming}
        title="Reorder Video Segments"
        description={
          <>
            <p>The video will be rendered with its paragraphs in the new order. The transcript is re-timed to match.</p>
            <JobEstimateLine videoId={video.id} kind="reorder" className="wc-muted" />
          </>
        }
        confirmLabel="Start Reordering"
        onConfirm={() => void start()}
        onCancel={() => setConfirming(false)}
        testId="reorder-confirm"
      />
    </div>
  );
}

function SortableParagraphs({
  reorder,
  onChange,
  onMove,
  previewing,
  instructionsId,
}: {
  reorder: ReorderState;
  onChange: (segments: ReorderSegment[]) => void;
  onMove: (from: number, to: number, arrow: 'up' | 'down') => void;
  previewing: boolean;
  instructionsId: string;
}) {
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const ids = useMemo(() => reorder.segments.map((s) => s.id), [reorder.segments]);
  const positionOf = (id: string | number) => ids.indexOf(String(id)) + 1;
  const announcements: Announcements = {
    onDragStart: ({ active }) => `Picked up paragraph at position ${positionOf(active.id)} of ${ids.length}.`,
    onDragOver: ({ active, over }) => (over ? `Paragraph ${positionOf(active.id)} is over position ${positionOf(over.id)}.` : `Paragraph ${positionOf(active.id)} is no longer over a position.`),
    onDragEnd: ({ active, over }) => (over ? `Paragraph dropped at position ${positionOf(over.id)} of ${ids.length}.` : `Paragraph ${positionOf(active.id)} dropped.`),
    onDragCancel: ({ active }) => `Moving cancelled. Paragraph stays at position ${positionOf(active.id)}.`,
  };

  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    const from = ids.indexOf(String(active.id));
    const to = ids.indexOf(String(over.id));
    onChange(moveItem(reorder.segments, from, to));
  };

  const activeId = useWorkspace((s) => (s.reorderPreview && s.reorder ? s.reorder.segments[s.reorderPreview.index]?.id ?? null : null));

  return (
    <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd} accessibility={{ announcements, screenReaderInstructions: { draggable: '' } }}>
      <SortableContext items={ids} strategy={verticalListSortingStrategy}>
        <ol className="wc-reorder__list" aria-label="Paragraphs in their new order" data-testid="reorder-list">
          {reorder.segments.map((segment, index) => (
            <SortableParagraph
              key={segment.id}
              segment={segment}
              index={index}
              count={reorder.segments.length}
              text={paragraphPreviewText(reorder.words, reorder.paragraphs[segment.paragraphId]!)}
              playing={previewing && activeId === segment.id}
              instructionsId={instructionsId}
              onUp={() => onMove(index, index - 1, 'up')}
              onDown={() => onMove(index, index + 1, 'down')}
            />
          ))}
        </ol>
      </SortableContext>
    </DndContext>
  );
}

function SortableParagraph({
  segment,
  index,
  count,
  text,
  playing,
  instructionsId,
  onUp,
  onDown,
}: {
  segment: ReorderSegment;
  index: number;
  count: number;
  text: string;
  playing: boolean;
  instructionsId: string;
  onUp: () => void;
  onDown: () => void;
}) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id: segment.id });
  const moved = segment.paragraphId !== index;
  return (
    <li
      ref={setNodeRef}
      className={`wc-reorder__item${isDragging ? ' wc-reorder__item--dragging' : ''}${playing ? ' wc-reorder__item--playing' : ''}${moved ? ' wc-reorder__item--moved' : ''}`}
      style={{ transform: CSS.Transform.toString(transform), transition }}
      data-testid="reorder-item"
      data-paragraph={segment.paragraphId}
    >
      <button
        ref={setActivatorNodeRef}
        type="button"
        className="wc-reorder__handle"
        aria-label={`Drag paragraph ${segment.paragraphId + 1}, now at position ${index + 1} of ${count}`}
        {...attributes}
        aria-describedby={instructionsId}
        {...listeners}
        data-testid="reorder-handle"
      >
        <span aria-hidden="true">⠿</span>
      </button>
      <span className="wc-reorder__badge" aria-hidden="true" title={moved ? `Was paragraph ${segment.paragraphId + 1}` : undefined}>
        {index + 1}
      </span>
      <div className="wc-reorder__body">
        <span className="wc-muted wc-reorder__time">
          {formatTimestamp(segment.start)}–{formatTimestamp(segment.end)}
          {moved ? ` · was ${segment.paragraphId + 1}` : ''}
        </span>
        <span className="wc-reorder__text">{text}</span>
      </div>
      <div className="wc-reorder__arrows">
        <button type="button" className="wc-button wc-button--small" onClick={onUp} disabled={index === 0} aria-label={`Move paragraph ${segment.paragraphId + 1} up`} data-testid="reorder-up">
          ↑
        </button>
        <button type="button" className="wc-button wc-button--small" onClick={onDown} disabled={index === count - 1} aria-label={`Move paragraph ${segment.paragraphId + 1} down`} data-testid="reorder-down">
          ↓
        </button>
      </div>
    </li>
  );
}
