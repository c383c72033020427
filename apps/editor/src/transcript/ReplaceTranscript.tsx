import { useId, useState } from 'react';
import type { FormEvent } from 'react';
import * as Dialog from '@radix-ui/react-dialog';
import { useQueryClient } from '@tanstack/react-query';
import { describeError, editorBridge, toast, useRestoreFocus } from '@wordcut/ui';
import { CAPTION_ACCEPT, checkVttFile, messageText } from '../entry/validation';
import { refreshVideo } from '../jobs/refresh';
import { replacedMessage, replaceTranscript } from './replaceTranscript';

/**
 * 'Replace transcript…': a caption file (WebVTT, SubRip, Whisper or WhisperX JSON, word JSON)
 * timed on the original recording takes the place of the words. One undoable step.
 */
export function ReplaceTranscript({ open, onOpenChange, videoId }: { open: boolean; onOpenChange: (open: boolean) => void; videoId: string }) {
  const id = useId();
  const focus = useRestoreFocus();
  const queryClient = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const close = (next: boolean) => {
    if (busy) return;
    if (!next) {
      setFile(null);
      setProblem(null);
    }
    onOpenChange(next);
  };
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!file) {
      setProblem('Choose a caption file first.');
      return;
    }
    setBusy(true);
    try {
      const answer = await replaceTranscript(videoId, file);
      // the editor records the step before the page fetches its data again
      await editorBridge.announceVersion({ videoId, ...answer.version, operation: 'replace-transcript', description: 'Replace transcript' });
      await refreshVideo(queryClient, videoId);
      toast(replacedMessage(answer));
      setBusy(false);
      close(false);
    } catch (error) {
      setProblem(describeError(error));
      setBusy(false);
    }
  };
  const choose = (chosen: File | null) => {
    const bad = checkVttFile(chosen);
    setFile(bad ? null : chosen);
    setProblem(bad ? messageText(bad) : null);
  };

  return (
    <Dialog.Root open={open} onOpenChange={close}>
      <Dialog.Portal>
        <Dialog.Overlay className="wc-dialog-overlay" />
        <Dialog.Content className="wc-dialog" data-testid="replace-transcript" {...focus}>
          <Dialog.Title className="wc-dialog__title">Replace transcript</Dialog.Title>
          <Dialog.Description asChild>
            <div className="wc-muted">
              Bring the words from a caption file: WebVTT, SubRip (.srt), Whisper or WhisperX JSON, or word-timing JSON. Its times must be those of the original recording; words in
              parts you cut are left out. Undo brings the words before back.
            </div>
          </Dialog.Description>
          <form className="wc-form" onSubmit={(event) => void submit(event)} noValidate>
            <div className="wc-field">
              <label htmlFor={`${id}-file`}>Caption file</label>
              <input
                id={`${id}-file`}
                type="file"
                accept={CAPTION_ACCEPT}
                disabled={busy}
                aria-invalid={problem ? true : undefined}
                aria-describedby={problem ? `${id}-problem` : undefined}
                onChange={(event) => choose(event.currentTarget.files?.[0] ?? null)}
              />
            </div>
            {problem ? (
              <p id={`${id}-problem`} className="wc-error-text" role="alert" data-testid="replace-transcript-error">
                {problem}
              </p>
            ) : null}
            <div className="wc-dialog__actions">
              <Dialog.Close className="wc-button" disabled={busy}>
                Cancel
              </Dialog.Close>
              <button type="submit" className="wc-button wc-button--primary" disabled={busy}>
                {busy ? 'Replacing…' : 'Replace transcript'}
              </button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
