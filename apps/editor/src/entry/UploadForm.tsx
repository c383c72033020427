import { useEffect, useId, useRef, useState } from 'react';
import type { FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import type { Video } from '@wordcut/contracts';
import { toast } from '@wordcut/ui';
import { editorRoute, videoKeys } from '../shared/api';
import { startUploadSession, UploadError, uploadVideo } from './upload';
import type { UploadProgress } from './upload';
import { CAPTION_ACCEPT, checkVideoFile, checkVttFile, messageText, validateUpload, VIDEO_ACCEPT } from './validation';
import type { ValidationMessage } from './validation';

export const UPLOAD_FAILED_TITLE = 'Upload failed';
export const UPLOAD_FAILED_DESCRIPTION = 'Please try again with valid MP4 video and VTT subtitle files.';

function warn(message: ValidationMessage) {
  toast({ title: message.title, description: message.description, variant: 'destructive' });
}

/**
 * The legacy upload form: a video (MP4, MOV, MKV or WebM) and its caption file (WebVTT, SubRip or
 * a JSON transcript), checked on choice and on submit, uploaded with real progress and a Cancel
 * button; on success the editor opens the new video. Where a transcription service is set up
 * (`canTranscribe`) the caption file may be left out.
 */
export function UploadForm({ basePath, canTranscribe = false }: { basePath: string; canTranscribe?: boolean }) {
  const id = useId();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [video, setVideo] = useState<File | null>(null);
  const [vtt, setVtt] = useState<File | null>(null);
  const [videoProblem, setVideoProblem] = useState<ValidationMessage | null>(null);
  const [vttProblem, setVttProblem] = useState<ValidationMessage | null>(null);
  const [formProblem, setFormProblem] = useState<ValidationMessage | null>(null);
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const abort = useRef<AbortController | null>(null);

  useEffect(() => () => abort.current?.abort(), []);

  const upload = useMutation<Video, UploadError, { video: File; vtt: File | null }>({
    mutationFn: async (files) => {
      abort.current = new AbortController();
      setProgress(null);
      const token = await startUploadSession();
      return uploadVideo(files.video, files.vtt, { onProgress: setProgress, signal: abort.current.signal, token });
    },
    onSuccess: (created) => {
      queryClient.setQueryData(videoKeys.video(created.id), created);
      navigate(editorRoute(basePath, created.id));
    },
    onError: (error) => {
      if (!error.cancelled) toast({ title: UPLOAD_FAILED_TITLE, description: UPLOAD_FAILED_DESCRIPTION, variant: 'destructive' });
    },
    onSettled: () => {
      abort.current = null;
    },
  });

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (upload.isPending) return;
    const problem = validateUpload(video, vtt, { canTranscribe });
    setFormProblem(problem);
    if (problem) {
      warn(problem);
      return;
    }
    upload.mutate({ video: video!, vtt });
  };

  const choose = (kind: 'video' | 'vtt', file: File | null) => {
    const problem = kind === 'video' ? checkVideoFile(file) : checkVttFile(file);
    if (kind === 'video') {
      setVideo(file);
      setVideoProblem(problem);
    } else {
      setVtt(file);
      setVttProblem(problem);
    }
    setFormProblem(null);
    if (problem) warn(problem);
  };

  const busy = upload.isPending;
  const serverError = upload.isError && !upload.error.cancelled ? upload.error.message : null;

  return (
    <section className="wc-card wc-upload" aria-labelledby={`${id}-title`} data-testid="upload-form">
      <h1 id={`${id}-title`} className="wc-card__title">
        Upload a video
      </h1>
      <p className="wc-muted" data-testid="upload-hint">
        {canTranscribe
          ? 'Choose a video and, if you have one, its subtitle file. Without subtitles the video is transcribed for you.'
          : 'Choose an MP4 video and its VTT subtitle file. The transcript is built from the subtitles: a subtitle file is needed, as transcription is not set up here.'}
      </p>
      <form className="wc-form" onSubmit={onSubmit} noValidate>
        <FileField id={id} name="video" label="MP4 video file" hint="Also MOV, MKV and WebM recordings." accept={VIDEO_ACCEPT} disabled={busy} problem={videoProblem} onChoose={(file) => choose('video', file)} />
        <FileField id={id} name="vtt" label={canTranscribe ? 'VTT subtitle file (optional)' : 'VTT subtitle file'} hint="Also SubRip (.srt), Whisper or WhisperX JSON, or word-timing JSON." accept={CAPTION_ACCEPT} disabled={busy} problem={vttProblem} onChoose={(file) => choose('vtt', file)} />
        {formProblem ? (
          <p className="wc-error-text" role="alert" data-testid="upload-form-error">
            {messageText(formProblem)}
          </p>
        ) : null}
        <div className="wc-actions">
          <button type="submit" className="wc-button wc-button--primary" disabled={busy}>
            {busy ? 'Uploading…' : 'Upload and open'}
          </button>
          {busy ? (
            <button type="button" className="wc-button" onClick={() => abort.current?.abort()}>
              Cancel upload
            </button>
          ) : null}
        </div>
      </form>

      {busy ? (
        <div className="wc-upload__progress" role="status" aria-live="polite" data-testid="upload-progress">
          <div className="wc-job__row">
            <span>Uploading</span>
            <span data-testid="upload-percent">{progress?.percent ?? 0}%</span>
          </div>
          <progress className="wc-progress" max={100} value={progress?.percent ?? 0} aria-label="Upload progress" />
        </div>
      ) : null}

      {upload.isError && upload.error.cancelled ? (
        <p className="wc-muted" role="status" data-testid="upload-cancelled">
          Upload cancelled.
        </p>
      ) : null}
      {serverError ? (
        <p className="wc-error-text" role="alert" data-testid="upload-error">
          {serverError}
        </p>
      ) : null}
    </section>
  );
}

/** One file of the form: its input, labelled, and under it the problem with the chosen file. */
function FileField({ id, name, label, hint, accept, disabled, problem, onChoose }: {
  /** the form's id: the input is `<id>-<name>` */
  id: string;
  name: 'video' | 'vtt';
  label: string;
  /** what else the field takes, under the label */
  hint: string;
  accept: string;
  disabled: boolean;
  problem: ValidationMessage | null;
  onChoose: (file: File | null) => void;
}) {
  const errorId = `${id}-${name}-error`;
  const hintId = `${id}-${name}-hint`;
  return (
    <div className="wc-field">
      <label htmlFor={`${id}-${name}`}>{label}</label>
      <span id={hintId} className="wc-muted wc-field__hint">
        {hint}
      </span>
      <input
        id={`${id}-${name}`}
        name={name}
        type="file"
        accept={accept}
        disabled={disabled}
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? `${hintId} ${errorId}` : hintId}
        onChange={(event) => onChoose(event.currentTarget.files?.[0] ?? null)}
      />
      {problem ? (
        <p id={errorId} className="wc-error-text wc-field__error" data-testid={`${name}-file-error`}>
          {messageText(problem)}
        </p>
      ) : null}
    </div>
  );
}
