import { useId, useState } from 'react';
import type { BulkDeletionPreview, DeletionPreview } from '@wordcut/contracts';
import { describeError } from '@wordcut/ui';
import { Dialog } from './Dialog';
import { formatFileSize, plural } from './format';
import { BULK_DELETE_WORD, bulkDeleteConfirmed } from './listState';

export const DELETE_WARNING = 'This action cannot be undone.';

/** The rows a preview names, one line each (only kinds it has). */
function previewLines(p: {
  transcripts: number;
  transcriptWords?: number;
  clips: number;
  keyMoments: number;
  captionJobs: number;
  reorderJobs: number;
  renders: number;
  silenceAnalyses: number;
  jobs: number;
}): string[] {
  return [
    plural(p.transcripts, 'transcript') + (p.transcriptWords !== undefined ? ` (${plural(p.transcriptWords, 'word')})` : ''),
    plural(p.clips, 'clip'),
    plural(p.keyMoments, 'key moment'),
    plural(p.renders, 'render') + ` (${plural(p.captionJobs, 'caption job')}, ${plural(p.reorderJobs, 'reorder job')})`,
    plural(p.silenceAnalyses, 'silence analysis', 'silence analyses'),
    plural(p.jobs, 'job record'),
  ];
}

function FileList({ files, label }: { files: readonly string[]; label: string }) {
  return (
    <details className="wc-an-files">
      <summary>{label}</summary>
      <ul>
        {files.map((f) => (
          <li key={f}>
            <code>{f}</code>
          </li>
        ))}
      </ul>
    </details>
  );
}

interface SingleProps {
  preview: DeletionPreview;
  pending: boolean;
  error: unknown;
  onConfirm: () => void;
  onClose: () => void;
}

/** One video: what goes with it, then Delete ('Deleting...' while the call runs). */
export function SingleDeleteDialog({ preview, pending, error, onConfirm, onClose }: SingleProps) {
  return (
    <Dialog
      open
      title="Delete video?"
      onClose={onClose}
      actions={
        <>
          {/* a destructive dialog opens on Cancel */}
          <button type="button" className="wc-button" onClick={onClose} disabled={pending} data-autofocus>
            Cancel
          </button>
          <button type="button" className="wc-button wc-an-button--danger" onClick={onConfirm} disabled={pending}>
            {pending ? 'Deleting...' : 'Delete'}
          </button>
        </>
      }
    >
      <p>
        <strong>{preview.video.originalName}</strong> will be deleted with:
      </p>
      <ul className="wc-an-preview">
        {previewLines(preview).map((line) => (
          <li key={line}>{line}</li>
        ))}
        <li>
          {plural(preview.files.length, 'stored file')} ({formatFileSize(preview.totalSize)})
        </li>
      </ul>
      {preview.files.length > 0 ? <FileList files={preview.files} label="Show files" /> : null}
      <p className="wc-an-warning">{DELETE_WARNING}</p>
      {error ? (
        <p className="wc-error-text" role="alert">
          Deletion Failed: {describeError(error)}
        </p>
      ) : null}
    </Dialog>
  );
}

interface BulkProps {
  preview: BulkDeletionPreview;
  pending: boolean;
  error: unknown;
  onConfirm: () => void;
  onClose: () => void;
}

/** Several videos: the totals, the list, and 'Delete All' only once DELETE is typed exactly. */
export function BulkDeleteDialog({ preview, pending, error, onConfirm, onClose }: BulkProps) {
  const id = useId();
  const [typed, setTyped] = useState('');
  const confirmed = bulkDeleteConfirmed(typed);
  return (
    <Dialog
      open
      title={`Delete ${plural(preview.videos.length, 'video')}?`}
      onClose={onClose}
      actions={
        <>
          {/* a destructive dialog opens on Cancel */}
          <button type="button" className="wc-button" onClick={onClose} disabled={pending} data-autofocus>
            Cancel
          </button>
          <button type="button" className="wc-button wc-an-button--danger" onClick={onConfirm} disabled={!confirmed || pending}>
            {pending ? 'Deleting...' : 'Delete All'}
          </button>
        </>
      }
    >
      <ul className="wc-an-preview wc-an-preview--videos">
        {preview.videos.map((v) => (
          <li key={v.video.id}>{v.video.originalName}</li>
        ))}
      </ul>
      <p>Together with:</p>
      <ul className="wc-an-preview">
        {previewLines({
          transcripts: preview.totalTranscripts,
          clips: preview.totalClips,
          keyMoments: preview.totalKeyMoments,
          captionJobs: preview.totalCaptionJobs,
          reorderJobs: preview.totalReorderJobs,
          renders: preview.totalRenders,
          silenceAnalyses: preview.totalSilenceAnalyses,
          jobs: preview.totalJobs,
        }).map((line) => (
          <li key={line}>{line}</li>
        ))}
        <li>
          {plural(preview.totalFiles.length, 'stored file')} ({formatFileSize(preview.totalSize)})
        </li>
      </ul>
      {preview.totalFiles.length > 0 ? <FileList files={preview.totalFiles} label="Show files" /> : null}
      <p className="wc-an-warning">{DELETE_WARNING}</p>
      <div className="wc-field">
        <label htmlFor={`${id}-confirm`}>
          Type <strong>{BULK_DELETE_WORD}</strong> to confirm
        </label>
        <input id={`${id}-confirm`} type="text" autoComplete="off" spellCheck={false} value={typed} onChange={(e) => setTyped(e.currentTarget.value)} />
      </div>
      {error ? (
        <p className="wc-error-text" role="alert">
          Bulk Deletion Failed: {describeError(error)}
        </p>
      ) : null}
    </Dialog>
  );
}

interface RecordsProps {
  /** "Delete 3 error logs?" */
  title: string;
  /** what goes, in a sentence */
  description: string;
  pending: boolean;
  error: unknown;
  onConfirm: () => void;
  onClose: () => void;
}

/** Error logs or failed webhooks: what goes, Delete, and 'Bulk Delete Failed' when the call fails. */
export function BulkRecordsDeleteDialog({ title, description, pending, error, onConfirm, onClose }: RecordsProps) {
  return (
    <Dialog
      open
      title={title}
      onClose={onClose}
      actions={
        <>
          {/* a destructive dialog opens on Cancel */}
          <button type="button" className="wc-button" onClick={onClose} disabled={pending} data-autofocus>
            Cancel
          </button>
          <button type="button" className="wc-button wc-an-button--danger" onClick={onConfirm} disabled={pending}>
            {pending ? 'Deleting...' : 'Delete'}
          </button>
        </>
      }
    >
      <p>{description}</p>
      <p className="wc-an-warning">{DELETE_WARNING}</p>
      {error ? (
        <p className="wc-error-text" role="alert">
          Bulk Delete Failed: {describeError(error)}
        </p>
      ) : null}
    </Dialog>
  );
}
