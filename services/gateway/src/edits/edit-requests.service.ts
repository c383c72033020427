import { DEFAULT_CAPTION_STYLE, ErrorCode, type CaptionStyle, type JobKind, type MuteJobRequest, type ReorderRequest } from '@wordcut/contracts';
import { applyCuts, applyMute, applyReorder, mergeRanges, outputDuration, withCaptions, type EditList, type MuteLevel, type TimeRange } from '@wordcut/edit-list';
import { AppError } from '@wordcut/platform';
import { clampWords } from '@wordcut/transcript';
import { editing } from '../http';
import type { SilenceService } from '../silence/silence.service';
import type { TranscriptStore } from '../transcripts/transcript-store';
import { currentEditList, type EditService, type EditVideoRow } from './edits.service';
import { reorderRanges } from './reorder';

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export interface RenderRequested {
  jobId: string;
  success: true;
  status: 'pending';
}

/**
 * The edits a person asks for (cuts, filler words, silences, mutes, reorder, captions): each is
 * checked against the current transcript and edit list, composed onto the edit list
 * (libs/edit-list) and rendered by a media worker from the original (EditService).
 */
export class EditRequestService {
  constructor(
    private readonly edits: EditService,
    private readonly transcripts: TranscriptStore,
    private readonly silence: SilenceService,
  ) {}

  async applyCuts(videoId: string, userId: string, cuts: readonly TimeRange[]): Promise<RenderRequested> {
    const row = await this.edits.editableVideo(videoId, userId);
    const ranges = mergeRanges(cuts.filter((r) => r.end > r.start));
    return this.render(row, 'cut', userId, (el) => applyCuts(el, ranges), `${plural(ranges.length, 'cut')}`);
  }

  /** 409 when an index is past the transcript's words (it changed since the client read it). */
  async removeFillers(videoId: string, userId: string, fillerWordIndices: readonly number[]): Promise<RenderRequested> {
    const row = await this.edits.editableVideo(videoId, userId);
    const transcript = await this.transcriptOf(row);
    const bad = fillerWordIndices.find((i) => i >= transcript.words.length);
    if (bad !== undefined) throw new AppError(409, ErrorCode.OutdatedTranscript, `Word ${bad} does not exist: the transcript changed. Please reload.`);
    const words = clampWords(transcript.words, outputDuration(currentEditList(row)));
    const ranges = mergeRanges(fillerWordIndices.map((i) => ({ start: words[i]!.start, end: words[i]!.end })).filter((r) => r.end > r.start));
    if (ranges.length === 0) throw new AppError(422, ErrorCode.ValidationFailed, 'The filler words have no duration to remove.');
    return this.render(row, 'filler', userId, (el) => applyCuts(el, ranges), `${plural(fillerWordIndices.length, 'filler word')}`);
  }

  async removeSilences(videoId: string, userId: string, silenceRanges: readonly TimeRange[]): Promise<RenderRequested> {
    const row = await this.edits.editableVideo(videoId, userId);
    // cut edges land inside each pause, keeping a little of its silence next to speech
    const ranges = this.silence.removalRanges(row, mergeRanges(silenceRanges.filter((r) => r.end > r.start)));
    return this.render(row, 'silence', userId, (el) => applyCuts(el, ranges), `${plural(ranges.length, 'silence')}`);
  }

  /** 400 when a muted region does not end after it starts. */
  async mute(videoId: string, userId: string, pendingMutes: MuteJobRequest['pendingMutes']): Promise<RenderRequested> {
    const row = await this.edits.editableVideo(videoId, userId);
    const byLevel = new Map<MuteLevel, TimeRange[]>();
    for (const m of pendingMutes) {
      if (!(m.endTime > m.startTime)) throw new AppError(400, ErrorCode.ValidationFailed, 'A muted region must end after it starts.');
      byLevel.set(m.level, [...(byLevel.get(m.level) ?? []), { start: m.startTime, end: m.endTime }]);
    }
    return this.render(
      row,
      'mute',
      userId,
      (el) => [...byLevel].reduce((acc, [level, ranges]) => applyMute(acc, mergeRanges(ranges.filter((r) => r.end > r.start)), level), el),
      `${plural(pendingMutes.length, 'muted region')}`,
    );
  }

  /** The order is checked against the transcript the client saw (reorderRanges). */
  async reorder(videoId: string, userId: string, request: ReorderRequest, ifMatch: string | undefined): Promise<RenderRequested> {
    const row = await this.edits.editableVideo(videoId, userId);
    const transcript = await this.transcriptOf(row);
    const duration = outputDuration(currentEditList(row));
    const order = reorderRanges(request, ifMatch, transcript, clampWords(transcript.words, duration), duration);
    return this.render(row, 'reorder', userId, (el) => applyReorder(el, order), `${plural(order.length, 'segment')} reordered`);
  }

  /**
   * Burned captions are a setting of the version: burn them (again, from the current words) in
   * `style` (the version's own, else the default), or take them out (`enabled: false`).
   */
  async burnCaptions(videoId: string, userId: string, request: { style?: CaptionStyle; enabled: boolean }): Promise<RenderRequested> {
    const row = await this.edits.editableVideo(videoId, userId);
    if (!request.enabled) {
      if (!currentEditList(row).burnCaptions) throw new AppError(422, ErrorCode.ValidationFailed, 'This version has no burned captions to take out.');
      return this.render(row, 'caption', userId, (el) => withCaptions(el, false), 'remove burned captions');
    }
    const transcript = await this.transcripts.getByVideo(row.id);
    if (!transcript || transcript.words.length === 0) throw new AppError(422, ErrorCode.ValidationFailed, 'There is no transcript to burn in as captions.');
    return this.render(row, 'caption', userId, (el) => withCaptions(el, true, request.style ?? el.captionStyle ?? DEFAULT_CAPTION_STYLE), 'burn captions');
  }

  private async transcriptOf(row: EditVideoRow) {
    const transcript = await this.transcripts.getByVideo(row.id);
    if (!transcript) throw new AppError(409, ErrorCode.Conflict, 'The video has no transcript yet.');
    return transcript;
  }

  private async render(row: EditVideoRow, kind: JobKind, userId: string, edit: (el: EditList) => EditList, summary: string): Promise<RenderRequested> {
    const base = currentEditList(row);
    const next = editing(() => edit(base));
    const jobId = await this.edits.requestRender(row, kind, userId, base, next, summary);
    return { jobId, success: true, status: 'pending' };
  }
}
