import { EDIT_EXPORT_FORMATS, type EditExportFormat } from '@wordcut/contracts';
import { parseEditList, rationalRate, timelinePieces, writeEdl, writeFcpxml, writeMlt, writeOtio, type ExportSource, type NamedTimeline, type Rate } from '@wordcut/edit-list';
import { clampWords, wordsToSrt, wordsToVtt, wordsToWordByWord } from '@wordcut/transcript';
import type { ClipStore } from '../clips/clip-store';
import type { TranscriptStore } from '../transcripts/transcript-store';
import type { RenderStore } from './render-store';
import { currentEditList, videoFrameRate, type EditService } from './edits.service';

/** A file to download: its bytes, type and name. */
export interface ExportedFile {
  body: string;
  contentType: string;
  fileName: string;
}

/** Pixel formats whose levels are full range (JPEG). */
const FULL_RANGE = /^yuvj/;

/**
 * The current version of a video for another application (docs/EDIT-EXPORTS.md): the edit as a
 * timeline over the original (OTIO, FCPXML, EDL, MLT), or the edited transcript (SRT, WebVTT,
 * word JSON) on the edited video's times. The video's clips come along as timelines of their own
 * where the format holds several (OTIO, FCPXML). Owner only, like every route.
 */
export class TimelineExports {
  constructor(
    private readonly edits: EditService,
    private readonly transcripts: TranscriptStore,
    private readonly clips: ClipStore,
    private readonly renders: RenderStore,
  ) {}

  /** Each clip of the video as its own timeline: the source ranges its render kept. */
  private async clipTimelines(videoId: string, rate: Rate): Promise<NamedTimeline[]> {
    const out: NamedTimeline[] = [];
    for (const clip of await this.clips.listForVideo(videoId)) {
      const render = clip.job_id ? await this.renders.get(clip.job_id) : null;
      if (!render?.new_edit) continue;
      out.push({ name: clip.name, pieces: timelinePieces(parseEditList(render.new_edit), rate) });
    }
    return out;
  }

  async export(videoId: string, ownerId: string, format: EditExportFormat): Promise<ExportedFile> {
    const row = await this.edits.editableVideo(videoId, ownerId);
    const el = currentEditList(row);
    const name = (row.title || row.original_name || 'video').replace(/\.[a-z0-9]{2,4}$/i, '');
    const spec = EDIT_EXPORT_FORMATS[format];
    const file = (body: string): ExportedFile => ({ body, contentType: `${spec.contentType}; charset=utf-8`, fileName: `${name}.${spec.extension}` });
    if (format === 'srt' || format === 'vtt' || format === 'words.json') {
      const transcript = await this.transcripts.getByVideo(row.id);
      const words = clampWords(transcript?.words ?? [], row.duration ?? Number.POSITIVE_INFINITY);
      const language = transcript?.languageCode ?? row.language_code;
      if (format === 'srt') return file(wordsToSrt(words));
      if (format === 'vtt') return file(wordsToVtt(words, { languageCode: language }));
      return file(`${JSON.stringify(wordsToWordByWord(words, language), null, 2)}\n`);
    }
    const video = row.probe?.streams.find((s) => s.codecType === 'video');
    const fileName = row.original_name || row.filename;
    const source: ExportSource = {
      fileName,
      // the original by its name: the application asks to relink it where the user keeps it (MLT reads it beside the project)
      url: `file:///${encodeURIComponent(fileName)}`,
      title: row.title || row.original_name,
      rate: rationalRate(videoFrameRate(row.probe)),
      variableFrameRate: video?.variableFrameRate === true,
      width: video?.width ?? row.width,
      height: video?.height ?? row.height,
      durationSec: el.sourceDuration,
      hasAudio: row.has_audio !== false,
      fullRange: FULL_RANGE.test(video?.pixFmt ?? ''),
    };
    const pieces = timelinePieces(el, source.rate);
    if (format === 'otio') return file(writeOtio(source, pieces, await this.clipTimelines(row.id, source.rate)));
    if (format === 'fcpxml') return file(writeFcpxml(source, pieces, await this.clipTimelines(row.id, source.rate)));
    return file(format === 'edl' ? writeEdl(source, pieces) : writeMlt(source, pieces));
  }
}
