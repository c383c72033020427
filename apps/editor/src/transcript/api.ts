import type { ApplyCutsBody, MuteJobBody, RemoveFillersBody, RestoreVersionBody } from '@wordcut/contracts';
import { apiJson } from '@wordcut/ui';
import type { PendingMute } from '@wordcut/editor-core';
import type { JobStarted } from '../jobs/api';
import { videoPath } from '../shared/api';
import { bearerHeaders } from '../shared/sessionToken';
import type { TranscriptSavePayload, TranscriptSaver } from './saveQueue';

/**
 * The transcript editor's calls: the save, the changed-flags reset, and the starts of its jobs
 * (cuts, filler removal, mutes). Job starts carry the hosted session's token as bearer (the
 * server answers 401 'Authentication required' without one).
 */

const enc = encodeURIComponent;

interface PatchSummary {
  version: number;
}

/**
 * PATCH /api/transcripts/{id}, conditional on the version the editor holds (If-Match), asking
 * only for the new version back: the editor already shows the result (optimistic).
 */
export const httpTranscriptSaver: TranscriptSaver = {
  async save(transcriptId: string, version: number, payload: TranscriptSavePayload): Promise<number> {
    const answer = await apiJson<PatchSummary>(`/api/transcripts/${enc(transcriptId)}`, {
      method: 'PATCH',
      json: payload,
      headers: { 'if-match': `"${version}"`, prefer: 'return=minimal' },
    });
    return answer.version;
  },
};

/** Clear history also resets the video's changed flags (the transcript is the original again). */
export function resetChangedFlags(videoId: string): Promise<unknown> {
  return apiJson(videoPath(videoId), { method: 'PATCH', json: { vttChanged: false, wordBywordChanged: false } });
}

export interface TimeRangeBody {
  start: number;
  end: number;
}

export function applyCuts(videoId: string, cuts: readonly TimeRangeBody[]): Promise<JobStarted> {
  return apiJson<JobStarted>(`${videoPath(videoId)}/apply-cuts`, { method: 'POST', json: { cuts: [...cuts] } satisfies ApplyCutsBody, headers: bearerHeaders() });
}

export function removeFillerWords(videoId: string, fillerWordIndices: readonly number[]): Promise<JobStarted> {
  return apiJson<JobStarted>(`${videoPath(videoId)}/remove-filler-words`, {
    method: 'POST',
    json: { fillerWordIndices: [...fillerWordIndices] } satisfies RemoveFillersBody,
    headers: bearerHeaders(),
  });
}

export function startMuteJob(videoId: string, pendingMutes: readonly PendingMute[]): Promise<JobStarted> {
  return apiJson<JobStarted>('/api/mute/jobs', {
    method: 'POST',
    json: {
      videoId,
      pendingMutes: pendingMutes.map((m) => ({
        id: m.id,
        wordIndices: m.wordIndices,
        startTime: m.startTime,
        endTime: m.endTime,
        text: m.text,
        level: m.level,
      })),
    } satisfies MuteJobBody,
    headers: bearerHeaders(),
  });
}

/** POST /api/videos/{id}/versions/{seq}/restore: show version `seq` again (the page shows `expectedVersion`). */
export function restoreVersion(videoId: string, seq: number, expectedVersion: number): Promise<unknown> {
  return apiJson(`${videoPath(videoId)}/versions/${seq}/restore`, { method: 'POST', json: { expectedVersion } satisfies RestoreVersionBody, headers: bearerHeaders() });
}
