/* Over 400 lines: Quick Export, Generated Clips and the Create Video Clip dialog share the clip queries and the framing state; splitting the dialog into its own file is the next step. */
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import type { FormEvent, RefObject } from 'react';
import type { Video } from '@wordcut/contracts';
import { INITIAL_FRAMING, chooseRatio, geometryOf, reframeOf, type Framing, type SourceSize } from '@wordcut/edit-list';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import * as Dialog from '@radix-ui/react-dialog';
import {
  ASPECT_RATIOS,
  DEFAULT_ASPECT_RATIO,
  EXPORT_LIMIT_TOOLTIP,
  QUICK_EXPORTS,
  clipErrorToast,
  clipProgress,
  downloadFileName,
  quickExportName,
  validateClipName,
} from '@wordcut/editor-core';
import type { AspectRatio } from '@wordcut/editor-core';
import { Tooltip, toast, useRestoreFocus } from '@wordcut/ui';
import { streamUrl } from '../shared/api';
import { formatTimestamp } from '../shared/format';
import { useExportQuotaState } from '../shared/quota';
import { useWorkspace, useWorkspaceStore } from '../shared/workspace';
import { clipKeys, createClip, deleteClip, failureOf, useClips } from './api';
import type { ClipItem, NewClip } from './api';
import { focusIndexAfterDelete, newlyFinished, seenClips } from './finished';
import type { SeenClips } from './finished';
import { ConfirmDialog } from '../shared/dialogs';
import { ClipFraming } from './ClipFraming';
import { clipReframe, overlayRatio } from './framing';

/** Creating clips: 'Clip created' and a list refresh, or a toast saying why not ('Export limit reached' on a 429 quota answer, else the server's message). */
export function useCreateClip(videoId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (clip: NewClip) => createClip(clip),
    onSuccess: (created) => {
      toast({ title: 'Clip created', description: `${created.name} is being processed...` });
      void queryClient.invalidateQueries({ queryKey: clipKeys.list(videoId) });
    },
    onError: (error) => {
      const { status, body } = failureOf(error);
      toast({ ...clipErrorToast(status, body), variant: 'destructive' });
    },
  });
}

/**
 * The left column's clip parts: the Quick Export card (Square 1:1,
 * Story 9:16, Landscape 16:9 from the selected words) and the Generated Clips list; and the Create
 * Video Clip dialog the selection toolbar opens.
 */
export function ClipsPanel({ videoId, video }: { videoId: string; video?: Video }) {
  return (
    <>
      <QuickExportCard videoId={videoId} />
      <GeneratedClips videoId={videoId} />
      <CreateClipDialog videoId={videoId} video={video} />
    </>
  );
}

function QuickExportCard({ videoId }: { videoId: string }) {
  const workspace = useWorkspaceStore();
  const hasSelection = useWorkspace((s) => s.selectionRange !== null);
  const reframe = useWorkspace((s) => s.reframe);
  const quota = useExportQuotaState();
  const create = useCreateClip(videoId);
  const titleId = useId();
  const hintId = useId();
  const exceeded = quota === 'exceeded';

  const quickExport = (kind: 'Square' | 'Story' | 'Landscape', ratio: AspectRatio) => {
    const range = workspace.getSnapshot().selectionRange;
    if (!range) {
      toast({ title: 'No text selected', description: 'Please select text in the transcript first.' });
      return;
    }
    create.mutate({ videoId, name: quickExportName(kind, new Date()), startTime: range.start, endTime: range.end, aspectRatio: ratio });
  };

  return (
    <section className="wc-card wc-quick-export" aria-labelledby={titleId} data-testid="quick-export">
      <h2 id={titleId} className="wc-card__title">
        Quick Export
      </h2>
      <p className="wc-muted wc-quick-export__hint" id={hintId}>
        {/* a disabled button says why */}
        {exceeded ? EXPORT_LIMIT_TOOLTIP : create.isPending ? 'Creating a clip...' : hasSelection ? 'Make a clip of the selected words.' : 'Select words in the transcript, then pick a format.'}
      </p>
      <div className="wc-quick-export__buttons">
        {QUICK_EXPORTS.map((q) => {
          const button = (
            <button
              key={q.ratio}
              type="button"
              className="wc-button"
              aria-disabled={exceeded || create.isPending}
              disabled={create.isPending}
              onClick={() => (exceeded ? toast({ title: 'Export limit reached', description: EXPORT_LIMIT_TOOLTIP, variant: 'destructive' }) : quickExport(q.kind, q.ratio))}
              aria-describedby={hintId}
              data-testid={`quick-export-${q.kind.toLowerCase()}`}
            >
              {q.label}
            </button>
          );
          return exceeded ? (
            <Tooltip key={q.ratio} content={EXPORT_LIMIT_TOOLTIP}>
              {button}
            </Tooltip>
          ) : (
            button
          );
        })}
      </div>
      <div className="wc-quick-export__frame" role="group" aria-label="Preview frame on the player">
        <span className="wc-muted">Preview frame:</span>
        {ASPECT_RATIOS.map((a) => (
          <button
            key={a.ratio}
            type="button"
            className={`wc-chip-button${reframe === a.ratio ? ' wc-chip-button--on' : ''}`}
            aria-pressed={reframe === a.ratio}
            onClick={() => workspace.update({ reframe: reframe === a.ratio ? null : a.ratio })}
            data-testid={`reframe-${a.ratio}`}
          >
            {a.ratio}
          </button>
        ))}
      </div>
    </section>
  );
}

const HEADING = '';

function GeneratedClips({ videoId }: { videoId: string }) {
  const clips = useClips(videoId);
  const queryClient = useQueryClient();
  const titleId = useId();
  const sectionRef = useRef<HTMLElement>(null);
  const [confirming, setConfirming] = useState<ClipItem | null>(null);
  const [focusAfterDelete, setFocusAfterDelete] = useState<string | null>(null);
  useEffect(() => {
    if (focusAfterDelete === null) return;
    const section = sectionRef.current;
    const target =
      focusAfterDelete === HEADING
        ? section?.querySelector<HTMLElement>('h2')
        : section?.querySelector<HTMLElement>(`[data-clip-id="${CSS.escape(focusAfterDelete)}"] [data-testid="clip-delete"]`);
    if (!target) return;
    target.focus();
    setFocusAfterDelete(null);
  }, [focusAfterDelete, clips.data]);
  const announced = useFinishedClipNotice(clips.data, sectionRef);
  const remove = useMutation({
    mutationFn: (clip: ClipItem) => deleteClip(clip.id),
    onSuccess: async (_, clip) => {
      toast({ title: 'Clip deleted', description: `${clip.name} was deleted.` });
      const index = clips.data?.findIndex((c) => c.id === clip.id) ?? 0;
      await queryClient.invalidateQueries({ queryKey: clipKeys.list(videoId) });
      // the deleted row's button goes: focus the row now in its place, else the list's heading
      const remaining = (queryClient.getQueryData<ClipItem[]>(clipKeys.list(videoId)) ?? []).filter((c) => c.id !== clip.id);
      const next = focusIndexAfterDelete(index, remaining.length);
      setFocusAfterDelete(next === null ? HEADING : remaining[next]!.id);
    },
    onError: () => toast({ title: 'Delete failed', description: 'Failed to delete clip', variant: 'destructive' }),
  });

  return (
    <section ref={sectionRef} className="wc-card wc-clips" aria-labelledby={titleId} data-testid="generated-clips">
      <h2 id={titleId} className="wc-card__title" tabIndex={-1}>
        Generated Clips {clips.data && clips.data.length > 0 ? <span className="wc-muted">({clips.data.length})</span> : null}
      </h2>
      <p className="wc-visually-hidden" role="status" data-testid="clips-announcement">
        {announced}
      </p>
      <ConfirmDialog
        open={confirming !== null}
        title="Delete this clip?"
        description={<p>{confirming ? `“${confirming.name}” will be deleted. This cannot be undone.` : null}</p>}
        confirmLabel="Delete clip"
        destructive
        testId="delete-clip-dialog"
        onConfirm={() => {
          if (confirming) remove.mutate(confirming);
          setConfirming(null);
        }}
        onCancel={() => setConfirming(null)}
      />
      {clips.isError ? (
        <p className="wc-error-text" role="alert">
          {clips.error.message}{' '}
          <button type="button" className="wc-button wc-button--small" onClick={() => void clips.refetch()}>
            Retry
          </button>
        </p>
      ) : clips.data && clips.data.length === 0 ? (
        <p className="wc-muted" data-testid="clips-empty">
          No clips yet. Select words and use Create Clip or Quick Export.
        </p>
      ) : (
        <ul className="wc-clips__list" aria-label="Generated clips">
          {clips.data?.map((clip) => (
            <ClipRow key={clip.id} clip={clip} deleting={remove.isPending && remove.variables?.id === clip.id} onDelete={() => setConfirming(clip)} />
          ))}
        </ul>
      )}
    </section>
  );
}

function ClipRow({ clip, deleting, onDelete }: { clip: ClipItem; deleting: boolean; onDelete: () => void }) {
  const progress = clipProgress(clip.status);
  return (
    <li className="wc-clip" data-testid="clip-item" data-status={clip.status} data-clip-id={clip.id}>
      <div className="wc-clip__head">
        <span className="wc-clip__name">{clip.name}</span>
        <span className={`wc-badge wc-badge--clip-${clip.status}`}>{clip.status}</span>
      </div>
      <div className="wc-muted wc-clip__meta">
        {clip.aspectRatio} · {formatTimestamp(clip.startTime)}–{formatTimestamp(clip.endTime)}
      </div>
      {progress !== null ? (
        <div className="wc-progress" role="progressbar" aria-label={`${clip.name} progress`} aria-valuemin={0} aria-valuemax={100} aria-valuenow={progress}>
          <div className="wc-progress__bar" style={{ width: `${progress}%` }} />
        </div>
      ) : null}
      {clip.status === 'failed' && clip.error ? <p className="wc-error-text">{clip.error}</p> : null}
      <div className="wc-clip__actions">
        {clip.status === 'completed' ? (
          <>
            <a className="wc-button wc-button--small" href={clip.outputPath} download={downloadFileName(clip.name, 'mp4')} data-testid="clip-download">
              Download MP4
            </a>
            <a className="wc-button wc-button--small" href={clip.vttPath} download={downloadFileName(clip.name, 'vtt')} data-testid="clip-download-vtt">
              Download VTT
            </a>
          </>
        ) : null}
        <button type="button" className="wc-button wc-button--small wc-button--danger" onClick={onDelete} disabled={deleting} aria-label={`Delete ${clip.name}`} data-testid="clip-delete">
          {deleting ? 'Deleting...' : 'Delete'}
        </button>
      </div>
    </li>
  );
}

/**
 * A clip that finishes while the page is open is announced: a polite status line, and a toast
 * whose 'Show clip' scrolls the clip into view and focuses its download. Answers the status text.
 */
function useFinishedClipNotice(clips: ClipItem[] | undefined, sectionRef: RefObject<HTMLElement | null>): string {
  const seen = useRef<SeenClips | null>(null);
  const [text, setText] = useState('');
  useEffect(() => {
    if (!clips) return;
    const finished = seen.current ? newlyFinished(seen.current, clips) : [];
    seen.current = seenClips(clips);
    const clip = finished[finished.length - 1];
    if (!clip) return;
    setText(`Clip ready: ${clip.name}`);
    const show = () => {
      const row = sectionRef.current?.querySelector<HTMLElement>(`[data-clip-id="${CSS.escape(clip.id)}"]`);
      row?.scrollIntoView({ block: 'nearest' });
      row?.querySelector<HTMLElement>('[data-testid="clip-download"]')?.focus();
    };
    toast({ title: 'Clip ready', description: `${clip.name} is ready to download.`, action: { label: 'Show clip', altText: 'Show the clip in Generated Clips', onClick: show } });
  }, [clips, sectionRef]);
  return text;
}

/** The transcript word that takes focus in the transcript (its roving tab stop). */
const transcriptFocusTarget = (): HTMLElement | null => document.querySelector<HTMLElement>('[data-testid="transcript-word"][tabindex="0"]');

/**
 * The Create Video Clip dialog: a required name (Enter submits), aspect cards (default 'Original'),
 * and the preview of exactly what the clip keeps, zoomed and panned there; the request carries them.
 */
function CreateClipDialog({ videoId, video }: { videoId: string; video?: Video }) {
  const workspace = useWorkspaceStore();
  const request = useWorkspace((s) => s.clipDialog);
  const create = useCreateClip(videoId);
  const [name, setName] = useState('');
  const [framing, setFraming] = useState<Framing>({ ...INITIAL_FRAMING, ratio: DEFAULT_ASPECT_RATIO });
  const [measured, setMeasured] = useState<SourceSize | null>(null);
  const [touched, setTouched] = useState(false);
  const [captions, setCaptions] = useState(false);
  const open = request !== null;
  const aspect = framing.ratio;
  // the element's size once it knows it, else the probed one
  const size: SourceSize | null = measured ?? (video?.width && video.height ? { width: video.width, height: video.height } : null);
  const geometry = geometryOf(framing, size);
  // opened from the selection toolbar, which hides with the selection: then back to the transcript
  const focus = useRestoreFocus(transcriptFocusTarget);

  useEffect(() => {
    if (!open) return;
    setName('');
    setFraming({ ...INITIAL_FRAMING, ratio: DEFAULT_ASPECT_RATIO });
    setTouched(false);
    setCaptions(false);
  }, [open]);

  // the player's overlay frames the same window
  const shownRatio = overlayRatio(framing, geometry);
  useEffect(() => {
    if (!open) return;
    workspace.update({ reframe: shownRatio, reframeZoom: reframeOf(framing) });
  }, [open, workspace, shownRatio, framing]);

  const onSize = useCallback((next: SourceSize) => {
    setMeasured((current) => (current && current.width === next.width && current.height === next.height ? current : next));
    setFraming((current) => chooseRatio(current, current.ratio, next));
  }, []);

  const close = useCallback(() => workspace.update({ clipDialog: null, reframe: null, reframeZoom: null }), [workspace]);
  const error = validateClipName(name);

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    setTouched(true);
    if (error || !request) return;
    const reframe = clipReframe(framing);
    create.mutate(
      { videoId, name: name.trim(), startTime: request.start, endTime: request.end, aspectRatio: aspect, ...(captions ? { captions: true } : {}), ...(reframe ? { reframe } : {}) },
      { onSuccess: close },
    );
  };

  const pick = (ratio: AspectRatio) => setFraming((current) => chooseRatio(current, ratio, size));
  const source = video && request ? { src: streamUrl(video), start: request.start, end: request.end } : null;

  return (
    <Dialog.Root open={open} onOpenChange={(next) => (next ? undefined : close())}>
      <Dialog.Portal>
        <Dialog.Overlay className="wc-dialog-overlay wc-dialog-overlay--light" />
        <Dialog.Content className={`wc-dialog wc-clip-dialog${source ? ' wc-clip-dialog--framing' : ''}`} data-testid="create-clip-dialog" {...focus}>
          <Dialog.Title className="wc-dialog__title">Create Video Clip</Dialog.Title>
          <Dialog.Description className="wc-muted">
            {request ? `${formatTimestamp(request.start)}–${formatTimestamp(request.end)} · “${request.text.length > 80 ? `${request.text.slice(0, 79)}…` : request.text}”` : null}
          </Dialog.Description>
          <form onSubmit={submit} noValidate>
            <div className="wc-clip-dialog__body">
              <div className="wc-clip-dialog__fields">
                <label className="wc-field">
                  <span className="wc-field__label">Clip name</span>
                  <input
                    className="wc-input"
                    value={name}
                    onChange={(e) => setName(e.target.value)}
                    placeholder="My clip"
                    aria-invalid={touched && error !== null}
                    aria-describedby={touched && error ? 'clip-name-error' : undefined}
                    data-testid="clip-name"
                    autoFocus
                  />
                </label>
                {touched && error ? (
                  <p id="clip-name-error" className="wc-error-text" role="alert">
                    {error}
                  </p>
                ) : null}
                <fieldset className="wc-aspect-cards">
                  <legend className="wc-field__label">Aspect ratio</legend>
                  {ASPECT_RATIOS.map((a) => (
                    <label key={a.ratio} className={`wc-aspect-card${aspect === a.ratio ? ' wc-aspect-card--on' : ''}`} data-testid={`aspect-${a.ratio}`}>
                      <input type="radio" name="aspect" value={a.ratio} checked={aspect === a.ratio} onChange={() => pick(a.ratio)} className="wc-visually-hidden" />
                      <span className="wc-aspect-card__shape" style={shapeStyle(a.width, a.height)} aria-hidden="true" />
                      <span className="wc-aspect-card__name">{a.name}</span>
                      <span className="wc-muted wc-aspect-card__size">{a.width ? `${a.ratio} · ${a.width}x${a.height}` : 'Native size'}</span>
                    </label>
                  ))}
                </fieldset>
              </div>
              {source ? <ClipFraming source={source} framing={framing} size={size} geometry={geometry} onFraming={setFraming} onSize={onSize} /> : null}
            </div>
            <label className="wc-clip-captions">
              <input type="checkbox" checked={captions} onChange={(e) => setCaptions(e.target.checked)} data-testid="clip-captions" /> Burn captions into the clip
              (in the video&apos;s caption style)
            </label>
            <div className="wc-dialog__actions">
              <Dialog.Close className="wc-button" type="button">
                Cancel
              </Dialog.Close>
              <button type="submit" className="wc-button wc-button--primary" disabled={create.isPending || (touched && error !== null)} data-testid="create-clip-submit">
                {create.isPending ? 'Creating...' : 'Create Clip'}
              </button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

function shapeStyle(width: number | null, height: number | null) {
  if (!width || !height) return { width: 28, height: 20, borderStyle: 'dashed' as const };
  const scale = 28 / Math.max(width, height);
  return { width: Math.round(width * scale), height: Math.round(height * scale) };
}
