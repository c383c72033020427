import type { BurnCaptionsBody, DetectSilenceRequest, DetectSilenceResponse, ProcessSilenceBody } from '@wordcut/contracts';
import { apiJson } from '@wordcut/ui';
import type { JobStarted } from '../jobs/api';
import { videoPath } from '../shared/api';
import { bearerHeaders } from '../shared/sessionToken';

/**
 * The silence calls: detect the pauses of the current version, remove the chosen ones as a job
 * (bearer: the server answers 401 'Authentication required' without a token), and burn the
 * captions into the video (also a job).
 */

export function detectSilence(videoId: string, body: DetectSilenceRequest): Promise<DetectSilenceResponse> {
  return apiJson<DetectSilenceResponse>(`${videoPath(videoId)}/detect-silence`, { method: 'POST', json: body });
}

export function processSilence(videoId: string, silenceRanges: ProcessSilenceBody['silenceRanges']): Promise<JobStarted> {
  return apiJson<JobStarted>(`${videoPath(videoId)}/process-silence`, {
    method: 'POST',
    json: { silenceRanges: [...silenceRanges] } satisfies ProcessSilenceBody,
    headers: bearerHeaders(),
  });
}

export function burnCaptions(videoId: string, request: BurnCaptionsBody = {}): Promise<JobStarted> {
  return apiJson<JobStarted>(`${videoPath(videoId)}/burn-captions`, { method: 'POST', json: request, headers: bearerHeaders() });
}
