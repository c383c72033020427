import { clearSilences, requestSilenceRemoval } from './commands';
import { useOptionalSilence, useSilenceCommands } from './silenceContext';
import { markedForRemoval } from './silenceState';

/** 'Process N Silence Segments' with 'Cancel', above the transcript while pauses are marked remove. */
export function SilenceBar() {
  const count = useOptionalSilence((s) => markedForRemoval(s).length) ?? 0;
  if (count === 0) return null;
  return <Bar count={count} />;
}

function Bar({ count }: { count: number }) {
  const commands = useSilenceCommands();
  return (
    <div className="wc-pending-bar" role="region" aria-label="Pending silences" data-testid="pending-silences-bar">
      <button type="button" className="wc-button wc-button--primary" onClick={() => requestSilenceRemoval(commands)} disabled={commands.runner.job !== null}>
        Process {count} Silence Segments
      </button>
      <button type="button" className="wc-button" onClick={() => commands.silence.update({ panelOpen: true })}>
        Show Pauses
      </button>
      <button type="button" className="wc-button" onClick={() => clearSilences(commands)}>
        Cancel
      </button>
    </div>
  );
}
