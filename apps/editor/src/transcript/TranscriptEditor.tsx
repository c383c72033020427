/* Over 400 lines: the editor wires its stores, commands, actions and dialogs in one place; what each does lives in commands.ts, actions.ts, jobCommands.ts and versionCommands.ts. */
import { useEffect, useRef, useState } from 'react';
import type { ClipboardEvent, KeyboardEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useSearchParams } from 'react-router-dom';
import type { Transcript, Video } from '@wordcut/contracts';
import type { MuteLevel } from '@wordcut/edit-list';
import { EXPORT_LIMIT_TOOLTIP, fillersToRemove, muteLevelOfMark, redoCount, selectedIndices, undoCount } from '@wordcut/editor-core';
import type { SimilarWordAnalysis } from '@wordcut/editor-core';
import { apiJson, editorBridge, isApiError, toast } from '@wordcut/ui';
import { useJobs } from '../jobs/jobRunner';
import { useRefreshVideo } from '../jobs/refresh';
import { videoKeys, videoPath } from '../shared/api';
import { usePlaybackStore } from '../shared/playback';
import { useExportQuotaState } from '../shared/quota';
import { browserStorage } from '../shared/storage';
import { useWorkspace, useWorkspaceStore } from '../shared/workspace';
import { httpTranscriptSaver, resetChangedFlags, restoreVersion } from './api';
import { stepHistory } from './versionCommands';
import type { VersionCommandContext } from './versionCommands';
import {
  cancelKeepPreview,
  clearHistory,
  copySelection,
  cutSelection,
  enterReorderMode,
  muteSimilarWords,
  muteWords,
  openCreateClipDialog,
  pasteText,
  saveWordText,
  selectedText,
  similarWordsToMute,
  startKeepPreview,
  toggleCutMarks,
  unmuteWords,
  wordAtOrBefore,
} from './commands';
import type { EditorCommandContext } from './commands';
import { EditorDialogs } from './EditorDialogs';
import { EditorStoreContext, useEditor } from './editorContext';
import { EditorStore } from './editorStore';
import { EditorToolbar } from './EditorToolbar';
import { processCuts, processFillers, processKeep, processMutes, runningJobs } from './jobCommands';
import type { JobCommandContext } from './jobCommands';
import { linkEditorToPage } from './pageLink';
import { PendingBars } from './PendingBars';
import type { ConfirmKind } from './PendingBars';
import { SelectionToolbar } from './SelectionToolbar';
import { actionForKey, runAction } from './actions';
import type { ActionContext } from './actions';
import { isTextEntryTarget } from './shortcuts';
import { ShortcutSheet } from './ShortcutSheet';
import { TranscriptList } from './TranscriptList';
import type { TranscriptListApi } from './TranscriptList';
import { WordEditPopover } from './WordEditPopover';
import { WordMenu } from './WordMenu';
import { SilenceBar } from '../silence/SilenceBar';
import { useSilenceToolbar } from '../silence/SilenceLayer';

/**
 * The transcript editor: the toolbar, the pending-operation bars, the word list with its context
 * menu, the word-edit popover, the floating selection toolbar and the confirmation dialogs. What
 * each does is in commands.ts and jobCommands.ts; this file keeps the editor's UI state (which
 * dialog is open, which word is being edited) and wires the events to the commands.
 */

const UPDATE_FAILED = { title: 'Update failed', description: 'Failed to save changes. Your edit has been reverted.' };

export function TranscriptEditor({ video, transcript }: { video: Video; transcript: Transcript }) {
  const queryClient = useQueryClient();
  const workspace = useWorkspaceStore();
  const [store] = useState(
    () =>
      new EditorStore({
        videoId: video.id,
        transcript,
        saver: httpTranscriptSaver,
        storage: browserStorage(),
        onSaveFailed: (error) => {
          toast({ ...UPDATE_FAILED, variant: 'destructive' });
          // 409: someone else changed the transcript; load their version so the next edit applies to it
          if (isApiError(error) && error.status === 409) {
            void queryClient.invalidateQueries({ queryKey: videoKeys.transcript(video.id) });
          }
        },
        onNotice: (notice) => toast(notice),
      }),
  );
  const runner = useJobs();
  const jobRunning = runner.job?.phase === 'running';
  const moving = useWorkspace((s) => s.versionMove !== null);
  useEffect(() => {
    // a transcript that arrives while a job or an undo across versions runs waits for its end: the
    // step it belongs to is recorded then (a job's new version is one undoable step)
    if (jobRunning || moving || store.saving) return;
    const step = workspace.getSnapshot().incomingVersion;
    // the step goes with the first new transcript after it, taken or not, never with a later one
    const isNew = transcript.id !== store.getSnapshot().transcriptId || transcript.version !== store.getSnapshot().version;
    store.receive(transcript, step);
    if (step && isNew) workspace.update({ incomingVersion: null });
  }, [store, transcript, workspace, jobRunning, moving]);
  useEffect(
    () =>
      // a revert from the header or a replaced transcript is one undoable step, recorded before the page fetches its data again
      editorBridge.onVersion(async (v) => {
        if (v.videoId !== video.id) return;
        const fresh = await apiJson<Transcript>(`${videoPath(video.id)}/transcript`);
        store.receive(fresh, { before: v.before, after: v.after, origins: null, operation: v.operation ?? 'revert', description: v.description ?? 'Revert to Original' });
        store.persist();
      }),
    [store, video.id],
  );
  useEffect(() => {
    // a reload or tab close must not lose marks or history still waiting for their debounced write
    const flush = () => store.persist();
    window.addEventListener('pagehide', flush);
    return () => {
      window.removeEventListener('pagehide', flush);
      store.dispose();
    };
  }, [store]);
  return (
    <EditorStoreContext.Provider value={store}>
      <EditorBody video={video} store={store} />
    </EditorStoreContext.Provider>
  );
}

/** Events from portals (dialogs, menus, popovers) bubble through React too: only the editor's own DOM counts. */
const isEditorEvent = (event: { target: EventTarget; currentTarget: HTMLElement }) =>
  event.currentTarget.contains(event.target as Node) && !isTextEntryTarget(event.target);

function EditorBody({ video, store }: { video: Video; store: EditorStore }) {
  const queryClient = useQueryClient();
  const playback = usePlaybackStore();
  const workspace = useWorkspaceStore();
  const runner = useJobs();
  const refreshVideo = useRefreshVideo(video.id);
  const quota = useExportQuotaState();
  const [, setSearchParams] = useSearchParams();
  const list = useRef<TranscriptListApi>(null);
  const area = useRef<HTMLDivElement>(null);
  const selectionToolbar = useRef<HTMLDivElement>(null);
  const [followPlayback, setFollowPlayback] = useState(true);
  const [focusMode, setFocusMode] = useState(false);
  const [confirm, setConfirm] = useState<ConfirmKind | null>(null);
  const [editing, setEditing] = useState<{ index: number; rect: DOMRect } | null>(null);
  const [menuWord, setMenuWord] = useState<number | null>(null);
  const [similar, setSimilar] = useState<SimilarWordAnalysis | null>(null);
  const [similarLevel, setSimilarLevel] = useState<MuteLevel>('silence');
  const [shortcutsOpen, setShortcutsOpen] = useState(false);
  const [keptFillers, setKeptFillers] = useState<ReadonlySet<number>>(new Set());

  const words = useEditor((s) => s.content.words);
  const hasSelection = useEditor((s) => s.selection.length > 0);
  const keepPreview = useEditor((s) => s.keepPreview !== null);
  const fillerCount = useEditor((s) => s.fillerCount);
  const undoSteps = useEditor((s) => undoCount(s.history));
  const redoSteps = useEditor((s) => redoCount(s.history));
  const selectionAllMuted = useEditor((s) => {
    const indices = selectedIndices(s.selection);
    return indices.length > 0 && indices.every((i) => muteLevelOfMark(s.marks[i] ?? 0) !== null);
  });
  const duration = video.duration ?? (words.length ? words[words.length - 1]!.end : 0);
  const running = runningJobs(runner);
  const silenceTools = useSilenceToolbar();

  useEffect(() => linkEditorToPage(store, workspace, editorBridge), [store, workspace]);
  // a saved word edit makes burned captions out of date on the server: fetch the video to say so
  const savedVersion = useEditor((s) => s.version);
  const captionsCurrent = video.burnedCaptions !== null && !video.burnedCaptions.stale;
  const firstVersion = useRef(savedVersion);
  useEffect(() => {
    if (captionsCurrent && savedVersion !== firstVersion.current) void queryClient.invalidateQueries({ queryKey: videoKeys.video(video.id) });
    firstVersion.current = savedVersion;
  }, [captionsCurrent, savedVersion, queryClient, video.id]);

  const commands: EditorCommandContext = {
    editor: store,
    workspace,
    playback,
    focusedWord: () => list.current?.focusedWord(),
    toast,
    writeClipboard: (text) => {
      // clipboard refusals are ignored
      navigator.clipboard?.writeText(text).catch(() => undefined);
    },
  };
  const jobs: JobCommandContext = { videoId: video.id, editor: store, runner, refreshVideo, toast };
  const versions: VersionCommandContext = {
    videoId: video.id,
    editor: store,
    restore: restoreVersion,
    fetchTranscript: async () => {
      const fresh = await apiJson<Transcript>(`${videoPath(video.id)}/transcript`);
      queryClient.setQueryData(videoKeys.transcript(video.id), fresh);
      return fresh;
    },
    refreshVideo,
    toast,
    setMoving: (versionMove) => workspace.update({ versionMove }),
    isMoving: () => workspace.getSnapshot().versionMove !== null || runner.job !== null,
  };
  commands.stepHistory = (direction) => void stepHistory(versions, direction);

  const openEdit = (index: number) => {
    const element = list.current?.wordElement(index);
    if (!element) return;
    setEditing({ index, rect: element.getBoundingClientRect() });
  };

  const actions: ActionContext = {
    ...commands,
    openEdit,
    openShortcuts: () => setShortcutsOpen(true),
    togglePlayback: () => {
      if (playback.getSnapshot().playing) playback.pause();
      else playback.play().catch(() => toast({ title: 'Playback failed', description: 'The video cannot play right now.', variant: 'destructive' }));
    },
  };

  const closeEdit = (index: number) => {
    setEditing(null);
    list.current?.focusWord(index);
  };

  const askMuteSimilar = (index: number) => {
    const analysis = similarWordsToMute(commands, index);
    if (!analysis) return;
    setSimilarLevel('silence');
    setSimilar(analysis);
  };

  const runConfirmed = (kind: ConfirmKind) => {
    setConfirm(null);
    if (kind === 'fillers') {
      void processFillers(jobs, fillersToRemove(store.getSnapshot().content.fillerWords, keptFillers));
      return;
    }
    const process = { cuts: processCuts, mutes: processMutes, keep: processKeep }[kind];
    void process(jobs);
  };

  const openKeyClips = () =>
    setSearchParams((previous) => {
      const next = new URLSearchParams(previous);
      next.set('panel', 'keyclips');
      return next;
    });

  /** Focus back on the transcript's focused word (after a control that disappears). */
  const refocusTranscript = () => {
    const refocus = () => {
      const index = list.current?.focusedWord();
      if (index !== undefined) list.current?.focusWord(index);
    };
    // once the bar's removal is drawn, and again if a render after it left focus on the page
    requestAnimationFrame(() => {
      refocus();
      requestAnimationFrame(() => {
        if (document.activeElement === null || document.activeElement === document.body) refocus();
      });
    });
  };

  // the selection toolbar going away (Escape, a cleared selection) must not drop focus to the page
  const toolbarShown = hasSelection && !keepPreview;
  const toolbarWasShown = useRef(toolbarShown);
  useEffect(() => {
    const hidden = toolbarWasShown.current && !toolbarShown;
    toolbarWasShown.current = toolbarShown;
    if (hidden && (document.activeElement === null || document.activeElement === document.body)) refocusTranscript();
  });

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    // Alt+F10 reaches the selection toolbar, as in other editors
    if (event.altKey && event.key === 'F10' && selectionToolbar.current) {
      event.preventDefault();
      selectionToolbar.current.querySelector<HTMLElement>('button')?.focus();
      return;
    }
    if (!isEditorEvent(event) || runner.job) return;
    const onWord = (event.target as HTMLElement).closest?.('[data-testid="transcript-word"]') != null;
    const found = actionForKey(event.nativeEvent, onWord);
    if (!found) return;
    event.preventDefault();
    runAction(actions, found);
  };

  const onCopy = (event: ClipboardEvent<HTMLElement>) => {
    if (!isEditorEvent(event)) return;
    const text = selectedText(store);
    if (!text) return;
    event.preventDefault();
    event.clipboardData.setData('text/plain', text);
  };

  const onCut = (event: ClipboardEvent<HTMLElement>) => {
    if (!isEditorEvent(event)) return;
    const text = selectedText(store);
    if (!text) return;
    event.preventDefault();
    event.clipboardData.setData('text/plain', text);
    cutSelection(store);
  };

  const onPaste = (event: ClipboardEvent<HTMLElement>) => {
    if (!isEditorEvent(event)) return;
    event.preventDefault();
    pasteText(commands, event.clipboardData.getData('text/plain'));
  };

  const selected = () => selectedIndices(store.getSnapshot().selection);

  return (
    <div className="wc-transcript-editor" onKeyDown={onKeyDown} onCopy={onCopy} onCut={onCut} onPaste={onPaste} data-testid="transcript-editor">
      <EditorToolbar
        followPlayback={followPlayback}
        onFollowPlayback={setFollowPlayback}
        focusMode={focusMode}
        onFocusMode={setFocusMode}
        onJumpToCurrent={() => list.current?.focusWord(wordAtOrBefore(store.getSnapshot().content.words, playback.getSnapshot().currentTime))}
        onRemoveFillers={() => {
          if (fillerCount === 0) {
            toast({ title: 'No filler words found' });
            return;
          }
          setKeptFillers(new Set());
          setConfirm('fillers');
        }}
        onDetectSilence={silenceTools?.detectSilence}
        onBurnCaptions={silenceTools?.burnCaptions}
        captions={video.burnedCaptions ? (video.burnedCaptions.stale ? 'stale' : 'current') : 'none'}
        onFindKeyMoments={openKeyClips}
        onReorder={() => enterReorderMode(commands, video.duration)}
        fillerCount={fillerCount}
        undoCount={undoSteps}
        redoCount={redoSteps}
        onShortcuts={() => setShortcutsOpen(true)}
        onUndo={() => void stepHistory(versions, 'undo')}
        onRedo={() => void stepHistory(versions, 'redo')}
        onClearHistory={() =>
          void clearHistory({
            ...commands,
            resetChangedFlags: () => resetChangedFlags(video.id),
            refetchVideo: () => queryClient.invalidateQueries({ queryKey: videoKeys.video(video.id) }),
          })
        }
        duration={duration}
        wordCount={words.length}
        onSearchStep={(index) => list.current?.scrollToWord(index, true)}
      />

      <PendingBars
        running={running}
        onConfirm={setConfirm}
        onCancelKeep={() => {
          cancelKeepPreview(store);
          refocusTranscript();
        }}
        onCleared={refocusTranscript}
      />
      <SilenceBar />

      <div className="wc-transcript-editor__area" ref={area}>
        <WordMenu
          word={menuWord}
          onClose={() => setMenuWord(null)}
          onCloseFocus={() => {
            const index = list.current?.focusedWord();
            if (index !== undefined) list.current?.wordElement(index)?.focus();
          }}
          commands={commands} onEditWord={openEdit} onMuteSimilar={askMuteSimilar}>
          <div className="wc-transcript-editor__list">
            <TranscriptList
              ref={list}
              languageCode={video.languageCode}
              followPlayback={followPlayback}
              focusMode={focusMode}
              onEditWord={openEdit}
              onContextWord={setMenuWord}
            />
          </div>
        </WordMenu>
        {hasSelection && !keepPreview ? (
          <SelectionToolbar
            ref={selectionToolbar}
            area={area}
            allMuted={selectionAllMuted}
            onKeep={() => {
              startKeepPreview(commands, duration);
              refocusTranscript();
            }}
            onCreateClip={() => openCreateClipDialog(commands)}
            clipDisabledReason={quota === 'exceeded' ? EXPORT_LIMIT_TOOLTIP : runner.job ? 'Wait for the current job to finish' : null}
            onCopy={() => copySelection(commands)}
            onCut={() => toggleCutMarks(store, selected())}
            onMute={(level) => muteWords(store, selected(), level)}
            onUnmute={() => unmuteWords(store, selected())}
          />
        ) : null}
      </div>

      {editing ? (
        <WordEditPopover
          key={editing.index}
          rect={editing.rect}
          initial={words[editing.index]?.text ?? ''}
          onCancel={() => closeEdit(editing.index)}
          onSave={(text) => {
            if (saveWordText(store, editing.index, text)) closeEdit(editing.index);
          }}
        />
      ) : null}

      <ShortcutSheet open={shortcutsOpen} onOpenChange={setShortcutsOpen} />
      <EditorDialogs
        keptFillers={keptFillers}
        onKeptFillers={setKeptFillers}
        confirm={confirm}
        onConfirm={runConfirmed}
        onCancel={() => setConfirm(null)}
        similar={similar}
        similarLevel={similarLevel}
        onSimilarLevel={setSimilarLevel}
        onMuteSimilar={() => {
          if (similar) muteSimilarWords(store, similar, similarLevel);
          setSimilar(null);
        }}
        onCancelSimilar={() => setSimilar(null)}
      />
    </div>
  );
}
