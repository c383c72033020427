import { ConfirmDialog } from '../shared/dialogs';
import { JobEstimateLine } from '../shared/jobEstimate';
import { formatTimestamp } from '../shared/format';
import { processSilences } from './commands';
import { useSilence, useSilenceCommands, useSilenceStore } from './silenceContext';
import { confirmationList, estimatedTimeSaved, formatSeconds, markedForRemoval } from './silenceState';

/** Before removal: how many pauses and how much time, the first five pauses, then 'and n more'. */
export function SilenceConfirmDialog({ duration }: { duration: number }) {
  const commands = useSilenceCommands();
  const videoId = useSilenceStore().videoId;
  const state = useSilence((s) => s);
  const count = markedForRemoval(state).length;
  const list = confirmationList(state);
  return (
    <ConfirmDialog
      open={state.confirmOpen}
      testId="confirm-silences"
      title="Remove Silences"
      description={
        <p>
          {count} {count === 1 ? 'pause' : 'pauses'} will be removed from the video, about {formatSeconds(estimatedTimeSaved(state, duration))}{' '}
          in all; a little silence stays next to speech.
        </p>
      }
      confirmLabel="Remove Silences"
      onConfirm={() => void processSilences(commands)}
      onCancel={() => commands.silence.update({ confirmOpen: false })}
    >
      <JobEstimateLine videoId={videoId} kind="silence" />
      <ul className="wc-dialog__list" data-testid="silence-confirm-list">
        {list.shown.map((s) => (
          <li key={s.id}>
            {formatTimestamp(s.startTime)} · {formatSeconds(s.duration)} · {s.pauseType}
          </li>
        ))}
        {list.more > 0 ? <li>and {list.more} more</li> : null}
      </ul>
    </ConfirmDialog>
  );
}
