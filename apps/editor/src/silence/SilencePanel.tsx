import * as Dialog from '@radix-ui/react-dialog';
import { MIN_PAUSE_DURATION_MAX, MIN_PAUSE_DURATION_MIN } from '@wordcut/contracts';
import type { SpeechMetrics } from '@wordcut/contracts';
import { useRestoreFocus } from '@wordcut/ui';
import { useWorkspace } from '../shared/workspace';
import { decideAll, detectSilences, previewSilence, requestSilenceRemoval, setMinPause, setSilencePreview, toggleSilence } from './commands';
import { useSilence, useSilenceCommands } from './silenceContext';
import { SilenceList } from './SilenceList';
import { MIN_PAUSE_STEP, decisionOf, estimatedTimeSaved, formatSeconds, markedForRemoval } from './silenceState';

/**
 * The silence recommendation panel, a side sheet beside the player (not modal: the player and
 * timeline stay usable for previews): the speech analysis, the minimum-pause slider with Detect,
 * Remove All / Keep All, the pauses, and the process button. Escape or Close closes it; focus
 * goes back to the button that opened it.
 */
export function SilencePanel({ duration }: { duration: number }) {
  const commands = useSilenceCommands();
  const open = useSilence((s) => s.panelOpen);
  const focus = useRestoreFocus();
  return (
    <Dialog.Root modal={false} open={open} onOpenChange={(next) => commands.silence.update({ panelOpen: next })}>
      <Dialog.Portal>
        <Dialog.Content
          className="wc-silence-panel"
          data-testid="silence-panel"
          {...focus}
          // previews need the player and timeline: clicks outside leave the panel open
          onInteractOutside={(event) => event.preventDefault()}
        >
          <div className="wc-silence-panel__head">
            <Dialog.Title className="wc-silence-panel__title">Silence Recommendations</Dialog.Title>
            <button type="button" className="wc-button wc-button--small" onClick={() => commands.silence.update({ helpOpen: true })}>
              How Pause Detection Works
            </button>
            <Dialog.Close className="wc-button wc-button--small" aria-label="Close silence recommendations">
              ×
            </Dialog.Close>
          </div>
          <Dialog.Description className="wc-muted wc-small">
            Pauses found in the audio, each with a suggestion to remove or keep it. Mark the ones to remove, preview, then process.
          </Dialog.Description>
          <PanelBody duration={duration} />
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

function PanelBody({ duration }: { duration: number }) {
  const commands = useSilenceCommands();
  const state = useSilence((s) => s);
  const preview = useWorkspace((s) => s.silencePreview);
  const analysis = state.analysis;
  const marked = markedForRemoval(state).length;
  return (
    <>
      <form
        className="wc-silence-controls"
        onSubmit={(event) => {
          event.preventDefault();
          void detectSilences(commands);
        }}
      >
        <label htmlFor="wc-min-pause" className="wc-silence-controls__label">
          Minimum pause <output htmlFor="wc-min-pause" data-testid="min-pause-value">{formatSeconds(state.minPauseDuration)}</output>
        </label>
        <input
          id="wc-min-pause"
          type="range"
          min={MIN_PAUSE_DURATION_MIN}
          max={MIN_PAUSE_DURATION_MAX}
          step={MIN_PAUSE_STEP}
          value={state.minPauseDuration}
          aria-valuetext={formatSeconds(state.minPauseDuration)}
          onChange={(event) => setMinPause(commands, Number(event.target.value))}
          data-testid="min-pause-slider"
        />
        <label className="wc-silence-controls__check">
          <input
            type="checkbox"
            checked={state.useAutoThresholds}
            onChange={(event) => commands.silence.update({ useAutoThresholds: event.target.checked })}
          />{' '}
          Use this speaker&apos;s threshold when lower
        </label>
        <button type="submit" className="wc-button wc-button--primary" disabled={state.detecting} data-testid="silence-detect">
          {state.detecting ? 'Detecting…' : 'Detect'}
        </button>
      </form>

      {state.detecting && !analysis ? (
        <p className="wc-muted" role="status">
          Analysing the pauses…
        </p>
      ) : null}

      {analysis ? (
        <>
          <SpeechAnalysis metrics={analysis.speechMetrics} />
          <p className="wc-small" role="status" data-testid="silence-summary">
            {analysis.summary.total} pauses found at {formatSeconds(analysis.summary.minPauseDuration)} or longer
            {analysis.summary.autoThresholdApplied ? " (this speaker's threshold)" : ''}, {analysis.summary.recommended} recommended for
            removal. {marked} marked to remove: about {formatSeconds(estimatedTimeSaved(state, duration))} shorter.
          </p>
          <div className="wc-silence-actions" role="group" aria-label="All pauses">
            <button type="button" className="wc-button wc-button--small" onClick={() => decideAll(commands, 'remove')}>
              Remove All
            </button>
            <button type="button" className="wc-button wc-button--small" onClick={() => decideAll(commands, 'keep')}>
              Keep All
            </button>
            <button
              type="button"
              className={`wc-button wc-button--small${preview ? ' wc-button--pressed' : ''}`}
              aria-pressed={preview}
              disabled={marked === 0}
              onClick={() => setSilencePreview(commands, !preview)}
              data-testid="silence-preview"
            >
              Preview without removed pauses
            </button>
          </div>
          <SilenceList
            silences={analysis.silences}
            decisionOf={(silence) => decisionOf(state, silence)}
            selectedId={state.selectedId}
            onToggle={(id) => toggleSilence(commands, id)}
            onPreview={(id) => previewSilence(commands, id)}
          />
          <div className="wc-dialog__actions">
            <button
              type="button"
              className="wc-button wc-button--primary"
              onClick={() => requestSilenceRemoval(commands)}
              data-testid="silence-process"
            >
              Process {marked} Silence Segments
            </button>
          </div>
        </>
      ) : null}
    </>
  );
}

const PATTERN_LABEL: Record<SpeechMetrics['speechPattern'], string> = { fast: 'Fast', steady: 'Steady', deliberate: 'Deliberate', varied: 'Varied' };

/** The speaker's pace: words per minute, pattern, average pause and the threshold suggested for them. */
function SpeechAnalysis({ metrics }: { metrics: SpeechMetrics }) {
  return (
    <section aria-labelledby="wc-speech-analysis" className="wc-speech-analysis" data-testid="speech-analysis">
      <h3 id="wc-speech-analysis" className="wc-silence-panel__subtitle">
        Speech Analysis
      </h3>
      <dl className="wc-speech-analysis__grid">
        <div>
          <dt>Words per minute</dt>
          <dd data-testid="metric-wpm">{Math.round(metrics.wordsPerMinute)}</dd>
        </div>
        <div>
          <dt>Speech pattern</dt>
          <dd data-testid="metric-pattern">{PATTERN_LABEL[metrics.speechPattern]}</dd>
        </div>
        <div>
          <dt>Average pause</dt>
          <dd>{formatSeconds(metrics.averagePauseDuration)}</dd>
        </div>
        <div>
          <dt>Suggested minimum</dt>
          <dd data-testid="metric-suggested">{formatSeconds(metrics.suggestedThresholds.minPauseDuration)}</dd>
        </div>
      </dl>
    </section>
  );
}
