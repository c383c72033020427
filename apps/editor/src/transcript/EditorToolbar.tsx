import { formatDuration } from '../shared/format';
import { plural } from './commands';
import { SearchBox } from './SearchBox';
import { shortcutOf } from './actions';
import { ToolButton } from './ToolButton';

export interface EditorToolbarProps {
  followPlayback: boolean;
  onFollowPlayback: (on: boolean) => void;
  focusMode: boolean;
  onFocusMode: (on: boolean) => void;
  onJumpToCurrent: () => void;
  onRemoveFillers: () => void;
  /** Detect Silence (the silence panel); absent outside a video page */
  onDetectSilence?: () => void;
  /** Burn Captions (a job); absent outside a video page */
  onBurnCaptions?: () => void;
  /** the version's burned captions: none, matching the words, or drawn from words since edited */
  captions?: 'none' | 'current' | 'stale';
  onFindKeyMoments: () => void;
  onReorder: () => void;
  fillerCount: number;
  undoCount: number;
  redoCount: number;
  onUndo: () => void;
  onRedo: () => void;
  onClearHistory: () => void;
  /** opens the shortcut sheet */
  onShortcuts: () => void;

  duration: number;
  wordCount: number;
  onSearchStep: (wordIndex: number) => void;
}

/** The editor's toolbar: view toggles and history, the search box, then the transcript actions and counts. */
export function EditorToolbar(props: EditorToolbarProps) {
  return (
    <div className="wc-editor-toolbar" data-testid="editor-toolbar">
      <div className="wc-editor-toolbar__row" role="toolbar" aria-label="Transcript view">
        <ToolButton label="Follow playback" pressed={props.followPlayback} onClick={() => props.onFollowPlayback(!props.followPlayback)} />
        <ToolButton label="Focus mode" pressed={props.focusMode} onClick={() => props.onFocusMode(!props.focusMode)} />
        <ToolButton label="Jump to Current" onClick={props.onJumpToCurrent} />
        <span className="wc-editor-toolbar__spacer" />
        <ToolButton label="Undo" shortcut={shortcutOf('undo')} onClick={props.onUndo} disabled={props.undoCount === 0} testId="undo">
          Undo <span className="wc-count" data-testid="undo-count">{props.undoCount}</span>
        </ToolButton>
        <ToolButton label="Redo" shortcut={shortcutOf('redo')} onClick={props.onRedo} disabled={props.redoCount === 0} testId="redo">
          Redo <span className="wc-count" data-testid="redo-count">{props.redoCount}</span>
        </ToolButton>
        <ToolButton label="Clear history" onClick={props.onClearHistory} testId="clear-history" />
        <ToolButton label="Keyboard shortcuts" shortcut={shortcutOf('shortcuts')} onClick={props.onShortcuts} testId="keyboard-shortcuts" iconOnly>
          <span aria-hidden="true">?</span>
        </ToolButton>
      </div>
      <SearchBox onStep={props.onSearchStep} />
      <div className="wc-editor-toolbar__row" role="toolbar" aria-label="Transcript actions">
        <ToolButton label="Remove Filler Words" onClick={props.onRemoveFillers} disabled={props.fillerCount === 0} />
        {props.onDetectSilence ? <ToolButton label="Detect Silence" onClick={props.onDetectSilence} testId="detect-silence" /> : null}
        <ToolButton label="Find Key Moments" onClick={props.onFindKeyMoments} />
        <ToolButton label="Reorder Segments" onClick={props.onReorder} testId="reorder-segments" />
        {props.onBurnCaptions ? (
          <ToolButton
            label="Burn Captions"
            tooltip={props.captions === 'stale' ? 'Burned captions are out of date: words were edited since' : props.captions === 'current' ? 'Captions are burned into this version' : undefined}
            onClick={props.onBurnCaptions}
            testId="burn-captions"
          >
            Burn Captions
            {props.captions === 'stale' ? (
              <span className="wc-badge wc-badge--warning" data-testid="captions-stale">
                Out of date
              </span>
            ) : props.captions === 'current' ? (
              <span className="wc-badge">On</span>
            ) : null}
          </ToolButton>
        ) : null}
        <span className="wc-editor-toolbar__spacer" />
        <span className="wc-chip" data-testid="chip-duration">{formatDuration(props.duration)}</span>
        <span className="wc-chip" data-testid="chip-words">{plural(props.wordCount, 'word')}</span>
        <span className="wc-chip" data-testid="chip-fillers">{plural(props.fillerCount, 'filler')}</span>
      </div>
    </div>
  );
}
