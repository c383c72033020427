import type { CaptionWarning } from '@wordcut/contracts';

/** localStorage key under which the transcripts whose caption warnings were dismissed are kept. */
export const CAPTION_WARNINGS_SEEN_KEY = 'wordcut_caption_warnings_seen';
/** How many dismissed transcripts are remembered (the oldest are forgotten first). */
const REMEMBERED = 200;

/** 'N caption line(s) were skipped' (the count leaves out the "… and N more" summary line's own entry, adding its number). */
export function captionWarningSummary(warnings: readonly CaptionWarning[]): string {
  let count = 0;
  for (const w of warnings) {
    const more = w.line === null ? /^… and (\d+) more/.exec(w.message) : null;
    count += more ? Number(more[1]) : 1;
  }
  return count === 1 ? '1 caption line was skipped or repaired' : `${count} caption lines were skipped or repaired`;
}

/** One line of the details list, naming its line once ('Line 41: …' unless the message already does). */
export function captionWarningText(w: CaptionWarning): string {
  const text = w.line === null || w.message.includes(`line ${w.line}`) ? w.message : `Line ${w.line}: ${w.message}`;
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Whether the warnings of this transcript were dismissed in this browser. */
export function captionWarningsSeen(storage: Storage | null, transcriptId: string): boolean {
  return readSeen(storage).includes(transcriptId);
}

/** Remembers that the warnings of this transcript were dismissed. */
export function markCaptionWarningsSeen(storage: Storage | null, transcriptId: string): void {
  if (!storage) return;
  const seen = readSeen(storage).filter((id) => id !== transcriptId);
  seen.push(transcriptId);
  try {
    storage.setItem(CAPTION_WARNINGS_SEEN_KEY, JSON.stringify(seen.slice(-REMEMBERED)));
  } catch {
    // storage full or blocked: the notice shows again next time
  }
}

function readSeen(storage: Storage | null): string[] {
  try {
    const parsed: unknown = JSON.parse(storage?.getItem(CAPTION_WARNINGS_SEEN_KEY) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
}
