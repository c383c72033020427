import { useState } from 'react';
import * as AlertDialog from '@radix-ui/react-alert-dialog';
import * as Dialog from '@radix-ui/react-dialog';
import { useQueryClient } from '@tanstack/react-query';
import {
  CANCEL_LABEL,
  OK_LABEL,
  RESET_COMPLETED_TITLE,
  RESET_DELAYED_TEXT,
  RESET_FAILED_FALLBACK,
  RESET_FAILED_TITLE,
  RESETTING_SESSION_TITLE,
  REVERT_BUTTON_LABEL,
  REVERT_DIALOG_TEXT,
  REVERT_DIALOG_TITLE,
  SESSION_RESET_TITLE,
  resetToastText,
} from '@wordcut/publishing';
import { editorBridge, refreshSessionToken, toast, useRestoreFocus } from '@wordcut/ui';
import { resetSession } from './api';

/**
 * 'Revert to Original': a confirmation ('Are you sure you want to revert to the original?' / 'This
 * will delete all clips and changes.', Cancel / OK), then the blocking 'Resetting Session' dialog
 * while POST /api/provider/sessions/{id}/reset runs. On success the token is refreshed, the data
 * cache is cleared (every query reset; the ones on screen fetch again) and 'Session Reset' says
 * which files changed; when the refresh fails the reset still stands and 'Reset Completed' says
 * updates may be delayed. A failure toasts 'Reset Failed'.
 */

export const RESETTING_SESSION_TEXT = 'Restoring the original video and transcript. Please wait...';

export interface RevertFlowProps {
  videoId: string;
  /** the provider session the token is for; null when unknown */
  sessionId: string | null;
}

export function RevertFlow({ videoId, sessionId }: RevertFlowProps) {
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  // opened by the 'Revert to Original' button, not a Radix trigger: focus goes back to it on close
  const confirmFocus = useRestoreFocus();
  const [resetting, setResetting] = useState(false);

  const revert = async () => {
    setConfirming(false);
    setResetting(true);
    try {
      if (!sessionId) throw new Error(RESET_FAILED_FALLBACK);
      const answer = await resetSession(sessionId, videoId);
      // the editor records the revert as an undoable step before its data is fetched again
      if (answer.version) await editorBridge.announceVersion({ videoId, ...answer.version });
      const refreshed = await refreshSessionToken();
      // "the data cache is cleared": every cached answer goes; what is on screen is fetched again
      await queryClient.resetQueries();
      if (refreshed) toast({ title: SESSION_RESET_TITLE, description: resetToastText(answer.filesUpdated, answer.providerHasEdits === true) });
      else toast({ title: RESET_COMPLETED_TITLE, description: RESET_DELAYED_TEXT, variant: 'warning' });
    } catch (error) {
      const message = error instanceof Error && error.message ? error.message : RESET_FAILED_FALLBACK;
      toast({ title: RESET_FAILED_TITLE, description: message, variant: 'destructive' });
    } finally {
      setResetting(false);
    }
  };

  return (
    <>
      <button type="button" className="wc-button" onClick={() => setConfirming(true)} disabled={resetting}>
        {REVERT_BUTTON_LABEL}
      </button>

      <AlertDialog.Root open={confirming} onOpenChange={setConfirming}>
        <AlertDialog.Portal>
          <AlertDialog.Overlay className="wc-pub-overlay" />
          <AlertDialog.Content className="wc-pub-dialog wc-pub-dialog--small" {...confirmFocus}>
            <AlertDialog.Title className="wc-pub-dialog__title">{REVERT_DIALOG_TITLE}</AlertDialog.Title>
            <AlertDialog.Description className="wc-pub-dialog__description">{REVERT_DIALOG_TEXT}</AlertDialog.Description>
            <div className="wc-pub-dialog__actions">
              <AlertDialog.Cancel className="wc-button">{CANCEL_LABEL}</AlertDialog.Cancel>
              <AlertDialog.Action className="wc-button wc-pub-button--danger" onClick={() => void revert()}>
                {OK_LABEL}
              </AlertDialog.Action>
            </div>
          </AlertDialog.Content>
        </AlertDialog.Portal>
      </AlertDialog.Root>

      <Dialog.Root open={resetting}>
        <Dialog.Portal>
          <Dialog.Overlay className="wc-pub-overlay" />
          <Dialog.Content
            className="wc-pub-dialog wc-pub-dialog--small"
            aria-busy="true"
            onEscapeKeyDown={(e) => e.preventDefault()}
            onPointerDownOutside={(e) => e.preventDefault()}
            onInteractOutside={(e) => e.preventDefault()}
          >
            <div className="wc-pub-spinner" aria-hidden="true" />
            <Dialog.Title className="wc-pub-dialog__title">{RESETTING_SESSION_TITLE}</Dialog.Title>
            <Dialog.Description className="wc-pub-dialog__description" role="status" aria-live="polite">
              {RESETTING_SESSION_TEXT}
            </Dialog.Description>
          </Dialog.Content>
        </Dialog.Portal>
      </Dialog.Root>
    </>
  );
}
