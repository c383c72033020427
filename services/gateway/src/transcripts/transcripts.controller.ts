import { Body, Controller, Get, Headers, Inject, Param, Patch, Res } from '@nestjs/common';
import { ErrorCode, transcriptPatchSchema, type Transcript } from '@wordcut/contracts';
import { AppError } from '@wordcut/platform';
import type { Response } from 'express';
import { Caller, SignedMedia, type Identity } from '../auth/identity';
import { invalidBody, parseId } from '../http';
import type { TranscriptPatchSummary } from './transcript-store';
import { TranscriptsService } from './transcripts.service';

/** `If-Match: "3"` (weak or strong) as a transcript version; 400 when it names none. */
function parseIfMatch(ifMatch: string): number {
  const v = Number(ifMatch.replace(/^W\//, '').replace(/"/g, '').trim());
  if (!Number.isInteger(v) || v < 1) throw new AppError(400, ErrorCode.ValidationFailed, 'If-Match must carry the transcript version, e.g. "3".');
  return v;
}

/** A video's transcript: as captions for the player, as JSON for the editor, and its edits. */
@Controller('api')
export class TranscriptsController {
  constructor(@Inject(TranscriptsService) private readonly transcripts: TranscriptsService) {}

  /**
   * GET /api/videos/{id}/subtitles?v= : the current transcript as WebVTT, for the player's
   * captions track (signed like the stream; `v` only busts caches).
   */
  @Get('videos/:id/subtitles')
  @SignedMedia()
  async subtitles(@Param('id') id: string, @Res() res: Response, @Caller() caller: Identity): Promise<void> {
    const vtt = await this.transcripts.subtitles(parseId(id), caller.userId);
    res.setHeader('Content-Type', 'text/vtt; charset=utf-8');
    // word edits change the text without a new media version: always revalidate
    res.setHeader('Cache-Control', 'private, no-cache');
    res.status(200).send(vtt);
  }

  /** GET the transcript: sent as the serialised answer the store keeps per version. */
  @Get('videos/:id/transcript')
  async transcript(@Param('id') id: string, @Caller() caller: Identity, @Res({ passthrough: true }) res: Response): Promise<string> {
    const json = await this.transcripts.json(parseId(id), caller.userId);
    res.type('application/json');
    return json;
  }

  /**
   * PATCH /api/transcripts/{id}: full replacement or word deltas, conditional on `version` (body)
   * or `If-Match` (which wins). Answers the whole transcript, or with `Prefer: return=minimal`
   * only its new version and filler words (what an editor that applied the change optimistically needs).
   */
  @Patch('transcripts/:id')
  async patch(
    @Param('id') id: string,
    @Body() body: unknown,
    @Headers('if-match') ifMatch: string | undefined,
    @Headers('prefer') prefer: string | undefined,
    @Caller() caller: Identity,
  ): Promise<Transcript | TranscriptPatchSummary> {
    parseId(id, 'transcript');
    const p = transcriptPatchSchema.safeParse(body ?? {});
    if (!p.success) throw invalidBody(p.error.issues, 'Send words (full replacement) or wordDeltas: ');
    const expected = ifMatch !== undefined ? parseIfMatch(ifMatch) : p.data.version;
    const minimal = prefer !== undefined && /return=minimal/i.test(prefer);
    return this.transcripts.patch(id, caller.userId, p.data, expected, minimal);
  }
}
