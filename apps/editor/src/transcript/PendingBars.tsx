import { jobBlockedBy, type RunningJobs } from '@wordcut/editor-core';
import { useWorkspace, useWorkspaceStore } from '../shared/workspace';
import { useEditor, useEditorStore } from './editorContext';

/** Which confirmation a bar (or the toolbar) asks for. */
export type ConfirmKind = 'cuts' | 'mutes' | 'fillers' | 'keep';

/**
 * The bars above the transcript while something waits for a job: the pending cuts (process or
 * cancel), the pending mutes (process, preview, clear) and the keep preview (confirm or cancel).
 * A bar's process button is disabled while a job its job would wait for runs.
 */
export function PendingBars({ running, onConfirm, onCancelKeep, onCleared }: {
  running: RunningJobs;
  onConfirm: (kind: ConfirmKind) => void;
  onCancelKeep: () => void;
  /** after Cancel Cuts or Clear Mutes (undoable): the bar goes away, focus goes back to the transcript */
  onCleared: () => void;
}) {
  const store = useEditorStore();
  const workspace = useWorkspaceStore();
  const cutCount = useEditor((s) => s.pendingCuts.length);
  const muteCount = useEditor((s) => s.pendingMutes.length);
  const keepPreview = useEditor((s) => s.keepPreview !== null);
  const mutePreview = useWorkspace((s) => s.mutePreview);
  return (
    <>
      {cutCount > 0 ? (
        <div className="wc-pending-bar" role="region" aria-label="Pending cuts" data-testid="pending-cuts-bar">
          <button type="button" className="wc-button wc-button--primary" onClick={() => onConfirm('cuts')} disabled={jobBlockedBy('cut', running) !== null}>
            Process Video with {cutCount} Cuts
          </button>
          <button type="button" className="wc-button" onClick={() => {
              store.clearCuts();
              onCleared();
            }}>
            Cancel Cuts
          </button>
        </div>
      ) : null}
      {muteCount > 0 ? (
        <div className="wc-pending-bar" role="region" aria-label="Pending mutes" data-testid="pending-mutes-bar">
          <button type="button" className="wc-button wc-button--primary" onClick={() => onConfirm('mutes')} disabled={jobBlockedBy('mute', running) !== null}>
            Process Audio with {muteCount} Muted Regions
          </button>
          <button
            type="button"
            className={`wc-button${mutePreview ? ' wc-button--pressed' : ''}`}
            aria-pressed={mutePreview}
            onClick={() => workspace.update({ mutePreview: !mutePreview })}
            data-testid="mute-preview"
          >
            Preview Mutes
          </button>
          <button type="button" className="wc-button" onClick={() => {
              store.clearMutes();
              onCleared();
            }}>
            Clear Mutes
          </button>
        </div>
      ) : null}
      {keepPreview ? (
        <div className="wc-pending-bar wc-pending-bar--keep" role="region" aria-label="Keep selection preview" data-testid="keep-banner">
          <strong>Preview: Keep Selection</strong>
          <button type="button" className="wc-button wc-button--primary" onClick={() => onConfirm('keep')}>
            Confirm - Keep This Text
          </button>
          <button type="button" className="wc-button" onClick={onCancelKeep}>
            Cancel
          </button>
        </div>
      ) : null}
    </>
  );
}
