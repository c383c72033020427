import { MUTE_LEVELS, type MuteLevel } from '@wordcut/edit-list';
import { summarizeList } from '@wordcut/editor-core';
import type { SimilarWordAnalysis } from '@wordcut/editor-core';
import { ConfirmDialog, InfoPopover } from '../shared/dialogs';
import { formatDuration, formatTimestamp } from '../shared/format';
import { plural, shorten } from './commands';
import { FillerReview } from './FillerReview';
import { useEditor } from './editorContext';
import { MUTE_LEVEL_NAMES } from './muteLevels';
import type { ConfirmKind } from './PendingBars';

export { MUTE_LEVEL_NAMES } from './muteLevels';

/**
 * The editor's confirmations before a job (process the cuts, the mutes, remove the fillers, keep
 * the selection) and before muting a word's every occurrence. Each says what will change.
 */
export function EditorDialogs({ confirm, onConfirm, onCancel, similar, similarLevel, onSimilarLevel, onMuteSimilar, onCancelSimilar, keptFillers, onKeptFillers }: {
  confirm: ConfirmKind | null;
  /** the fillers the review keeps (not removed) */
  keptFillers: ReadonlySet<number>;
  onKeptFillers: (kept: Set<number>) => void;
  onConfirm: (kind: ConfirmKind) => void;
  onCancel: () => void;
  /** Mute Similar's question: the word's occurrences, or null while closed */
  similar: SimilarWordAnalysis | null;
  /** the level they will be muted at */
  similarLevel: MuteLevel;
  onSimilarLevel: (level: MuteLevel) => void;
  onMuteSimilar: () => void;
  onCancelSimilar: () => void;
}) {
  const pendingCuts = useEditor((s) => s.pendingCuts);
  const pendingMutes = useEditor((s) => s.pendingMutes);
  const words = useEditor((s) => s.content.words);
  const fillerWords = useEditor((s) => s.content.fillerWords);
  const mutesSummary = summarizeList(pendingMutes, 5);
  /** what the confirmation of a job kind shares: open while asked, confirming that kind */
  const asked = (kind: ConfirmKind) => ({ open: confirm === kind, testId: `confirm-${kind}`, onConfirm: () => onConfirm(kind), onCancel });
  return (
    <>
      <ConfirmDialog
        {...asked('cuts')}
        title="Process Video with Cuts"
        description={
          <p>
            {plural(pendingCuts.length, 'cut')} ({formatDuration(pendingCuts.reduce((t, c) => t + (c.endTime - c.startTime), 0))}) will be
            removed from the video. The transcript follows the new timing.
          </p>
        }
        confirmLabel="Process Video"
      />
      <ConfirmDialog
        {...asked('mutes')}
        title="Process Audio with Mutes"
        description={<p>The audio of these regions will be lowered; the picture is not touched.</p>}
        confirmLabel="Process Audio"
      >
        <ul className="wc-dialog__list" data-testid="mute-list">
          {mutesSummary.shown.map((m) => (
            <li key={m.id}>
              “{shorten(m.text)}” · {formatTimestamp(m.startTime)}–{formatTimestamp(m.endTime)} · {MUTE_LEVEL_NAMES[m.level]}
            </li>
          ))}
          {mutesSummary.more > 0 ? <li>and {mutesSummary.more} more</li> : null}
        </ul>
      </ConfirmDialog>
      <ConfirmDialog {...asked('fillers')} title="Remove Filler Words" description={null} confirmLabel="Remove Filler Words">
        {confirm === 'fillers' ? <FillerReview words={words} fillerWords={fillerWords} kept={keptFillers} onKept={onKeptFillers} /> : null}
      </ConfirmDialog>
      <ConfirmDialog
        {...asked('keep')}
        title="Keep Selection"
        description={<p>Everything before and after the selected text will be cut from the video.</p>}
        confirmLabel="Proceed with Trim"
        destructive
      />
      <ConfirmDialog
        open={similar !== null}
        title={`Mute all ${similar?.originalWord ?? ''}?`}
        testId="mute-similar-dialog"
        description={
          <p>
            {similar ? `${plural(similar.totalMatches, 'occurrence')} (${formatDuration(similar.totalDuration)}) will be marked for muting.` : ''}{' '}
            <InfoPopover label="How similar words are found">
              <p>Only the same word matches, ignoring capitals and punctuation: “run” does not match “running”.</p>
            </InfoPopover>
          </p>
        }
        confirmLabel="Mute All"
        onConfirm={onMuteSimilar}
        onCancel={onCancelSimilar}
      >
        <fieldset className="wc-levels">
          <legend>Level</legend>
          {MUTE_LEVELS.map((level) => (
            <label key={level}>
              <input type="radio" name="similar-level" value={level} checked={similarLevel === level} onChange={() => onSimilarLevel(level)} />{' '}
              {MUTE_LEVEL_NAMES[level]}
            </label>
          ))}
        </fieldset>
      </ConfirmDialog>
    </>
  );
}
