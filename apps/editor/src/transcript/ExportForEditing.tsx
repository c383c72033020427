import { useState } from 'react';
import { EDIT_EXPORT_FORMATS, type EditExportFormat } from '@wordcut/contracts';
import { describeError, toast } from '@wordcut/ui';
import { InfoDialog } from '../shared/dialogs';
import { downloadExport } from './exportDownload';

const TIMELINE_FORMATS: EditExportFormat[] = ['fcpxml', 'otio', 'mlt', 'edl'];
const TEXT_FORMATS: EditExportFormat[] = ['srt', 'vtt', 'words.json'];

/**
 * 'Export for editing…': the current version as a timeline another application opens over the
 * original (it asks to relink the original by its name), or the edited captions and words.
 */
export function ExportForEditing({ open, onOpenChange, videoId }: { open: boolean; onOpenChange: (open: boolean) => void; videoId: string }) {
  const [busy, setBusy] = useState<EditExportFormat | null>(null);
  const download = async (format: EditExportFormat) => {
    setBusy(format);
    try {
      const name = await downloadExport(videoId, format);
      toast({ title: 'Export downloaded', description: name });
    } catch (error) {
      toast({ title: 'Export failed', description: describeError(error), variant: 'destructive' });
    } finally {
      setBusy(null);
    }
  };
  const list = (formats: EditExportFormat[]) => (
    <ul className="wc-export-list">
      {formats.map((format) => (
        <li key={format}>
          <button type="button" className="wc-button" disabled={busy !== null} onClick={() => void download(format)} data-testid={`export-${format}`}>
            {busy === format ? 'Preparing…' : EDIT_EXPORT_FORMATS[format].label}
          </button>
        </li>
      ))}
    </ul>
  );
  return (
    <InfoDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Export for editing"
      description="The edit as a timeline over your original file, for another editor: keep the original beside the exported file, or relink it by its name when the application asks. Times are on the original's frames at its own rate."
      className="wc-export-dialog"
      testId="export-for-editing"
    >
      <h3 className="wc-export-dialog__heading">Timeline</h3>
      {list(TIMELINE_FORMATS)}
      <h3 className="wc-export-dialog__heading">Captions and words (on the edited video&apos;s times)</h3>
      {list(TEXT_FORMATS)}
    </InfoDialog>
  );
}
