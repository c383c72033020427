import type { JobStatus } from '@wordcut/contracts';
import { apiJson } from '@wordcut/ui';
import type { PendingMute } from '@wordcut/editor-core';
import { videoPath } from '../api';
import { bearerHeaders } from '../sessionToken';
import type { TranscriptSavePayload, TranscriptSaver } from './store';

/**
 * The editing calls of seed 000 §7. Apply-cuts and remove-filler-words carry the hosted
 * session's token as bearer (the server answers 401 'Authentication required' without one).
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

/** Clear history resets the changed flags (seed 000 §4 "Undo and redo"). */
export function resetChangedFlags(videoId: string): Promise<unknown> {
  return apiJson(videoPath(videoId), { method: 'PATCH', json: { vttChanged: false, wordBywordChanged: false } });
}

export interface JobStarted {
  jobId: string;
}

export interface TimeRangeBody {
  start: number;
  end: number;
}

export function applyCuts(videoId: string, cuts: readonly TimeRangeBody[]): Promise<JobStarted> {
  return apiJson<JobStarted>(`${videoPath(videoId)}/apply-cuts`, { method: 'POST', json: { cuts }, headers: bearerHeaders() });
}

export function removeFillerWords(videoId: string, fillerWordIndices: readonly number[]): Promise<JobStarted> {
  return apiJson<JobStarted>(`${videoPath(videoId)}/remove-filler-words`, {
    method: 'POST',
    json: { fillerWordIndices },
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
    },
    headers: bearerHeaders(),
  });
}

/** Which status path a job is polled on (seed 000 §7). */
export type JobPollKind = 'video' | 'caption' | 'mute' | 'reorder';

export function jobStatusPath(kind: JobPollKind, jobId: string): string {
  switch (kind) {
    case 'video':
      return `/api/video-processing/jobs/${enc(jobId)}`;
    case 'caption':
      return `/api/caption-jobs/${enc(jobId)}`;
    default:
      return `/api/jobs/${enc(jobId)}/status`;
  }
}

export type EditJobStatus = Pick<JobStatus, 'status' | 'progress' | 'message' | 'estimatedTimeRemaining' | 'error'> & { status: string };

export function fetchJobStatus(kind: JobPollKind, jobId: string, signal?: AbortSignal): Promise<EditJobStatus> {
  return apiJson<EditJobStatus>(jobStatusPath(kind, jobId), { signal });
}
