import { SHORTCUT_LABELS } from './shortcuts';
import { ToolButton } from './ToolButton';

/** The floating toolbar over a selection: Keep, Create Clip, Copy, Cut and Mute (Unmute when all are muted). */
export function SelectionToolbar({ allMuted, onKeep, onCreateClip, clipDisabledReason, onCopy, onCut, onMute, onUnmute }: {
  allMuted: boolean;
  onKeep: () => void;
  onCreateClip: () => void;
  /** why Create Clip is disabled (a job is processing, the export quota is used up), or null */
  clipDisabledReason: string | null;
  onCopy: () => void;
  onCut: () => void;
  onMute: () => void;
  onUnmute: () => void;
}) {
  return (
    <div className="wc-selection-toolbar" role="toolbar" aria-label="Selection actions" data-testid="selection-toolbar">
      <ToolButton label="Keep Selection" onClick={onKeep} />
      <ToolButton
        label="Create Clip"
        tooltip={clipDisabledReason ?? undefined}
        onClick={onCreateClip}
        disabled={clipDisabledReason !== null}
        testId="selection-create-clip"
      />
      <ToolButton label="Copy" shortcut={SHORTCUT_LABELS.copy} onClick={onCopy} />
      <ToolButton label="Cut" shortcut={SHORTCUT_LABELS.markCut} onClick={onCut} testId="selection-cut" />
      {allMuted ? (
        <ToolButton label="Unmute" shortcut={SHORTCUT_LABELS.unmute} onClick={onUnmute} />
      ) : (
        <ToolButton label="Mute" shortcut={SHORTCUT_LABELS.mute} onClick={onMute} />
      )}
    </div>
  );
}
