import { replaceTranscriptAnswerSchema, UPLOAD_VTT_FIELD, type ReplaceTranscriptAnswer } from '@wordcut/contracts';
import { apiFetch } from '@wordcut/ui';
import { videoPath } from '../shared/api';

/** POST /api/videos/{id}/transcript/replace with the chosen caption file (any format the upload takes). */
export async function replaceTranscript(videoId: string, file: File): Promise<ReplaceTranscriptAnswer> {
  const body = new FormData();
  body.append(UPLOAD_VTT_FIELD, file, file.name);
  const res = await apiFetch(`${videoPath(videoId)}/transcript/replace`, { method: 'POST', body });
  return replaceTranscriptAnswerSchema.parse(await res.json());
}

/** The toast after a replacement: how many words, and how many entries were skipped. */
export function replacedMessage(answer: Pick<ReplaceTranscriptAnswer, 'wordCount' | 'warnings'>): { title: string; description: string } {
  const words = `${answer.wordCount.toLocaleString('en-US')} word${answer.wordCount === 1 ? '' : 's'}`;
  const skipped = answer.warnings.length;
  const note = skipped ? ` ${skipped === 1 ? 'One entry of the file was' : `${skipped} entries of the file were`} skipped or mended; the transcript lists why.` : '';
  return { title: 'Transcript replaced', description: `The transcript now has ${words} from your file. Undo brings the words before back.${note}` };
}
