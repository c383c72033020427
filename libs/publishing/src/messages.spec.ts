import { exportErrorSchema } from '@wordcut/contracts';
import {
  EXPORT_ERROR_MESSAGES,
  ExportErrorCode,
  MAX_DETAILS_LENGTH,
  RESET_TEXTS,
  exportFailedToast,
  exportingTitle,
  parseExportError,
  resetToastText,
  uploadingText,
} from './messages';
import * as m from './messages';

/** What the client's fetcher throws for a non-OK answer. */
const httpError = (status: number, body: string) => new Error(`${status}: ${body}`);

describe('texts', () => {
  it('formats the provider texts', () => {
    expect(exportingTitle('Acme Video')).toBe('Exporting to Acme Video');
    expect(uploadingText(3, 'Acme Video')).toBe('Uploading 3 item(s) to Acme Video');
  });

  it('has a message for every export error code', () => {
    expect(EXPORT_ERROR_MESSAGES).toMatchObject({
      unauthorized: 'JWT token required for export. Please refresh the page.',
      token_refresh_failed: 'Failed to refresh authentication. Please reload the page.',
      export_failed: 'Failed to create export job',
      network_error: 'Network error. Please check your connection.',
      status_fetch_failed: 'Failed to fetch job status',
      retry_failed: 'Failed to retry export job',
    });
  });

  it('has the toasts and dialog texts', () => {
    expect([
      m.EXPORT_STARTED_TITLE,
      m.EXPORT_RETRYING_TITLE,
      m.EXPORT_COMPLETE_TITLE,
      m.EXPORT_FAILED_TITLE,
      m.RETRY_FAILED_TITLE,
      m.RESET_FAILED_TITLE,
      m.RESET_FAILED_FALLBACK,
      m.SESSION_RESET_TITLE,
      m.RESET_COMPLETED_TITLE,
      m.RESET_DELAYED_TEXT,
      m.VIDEO_CLONED_TITLE,
      m.VIDEO_CLONED_TEXT,
      m.CLONE_REQUEST_FAILED,
      m.NO_AUTH_TOKEN,
      m.STATUS_TOKEN_REQUIRED,
      m.RESET_TOKEN_REQUIRED,
      m.PUBLISH_PREREQUISITES_MISSING,
      m.EXPORT_FAILED_DEFAULT,
      m.REVERT_DIALOG_TITLE,
      m.REVERT_DIALOG_TEXT,
      m.RESETTING_SESSION_TITLE,
      m.UPGRADE_LINK_TEXT,
      m.UPGRADE_BUTTON_LABEL,
    ]).toEqual([
      'Export Started',
      'Export Retrying',
      'Export Complete',
      'Export Failed',
      'Retry Failed',
      'Reset Failed',
      'Failed to reset session',
      'Session Reset',
      'Reset Completed',
      'Session reset but some updates may be delayed',
      'Video cloned',
      'Exporting to new video...',
      'Clone request failed',
      'No authentication token',
      'Job ID and token required',
      'JWT token required',
      'Video or authentication token missing',
      'Export failed. Please try again.',
      'Are you sure you want to revert to the original?',
      'This will delete all clips and changes.',
      'Resetting Session',
      'Upgrade your plan',
      'Upgrade Plan',
    ]);
  });

  it('picks the Session Reset text', () => {
    expect([
      resetToastText({ video: true, transcript: true }),
      resetToastText({ video: true, transcript: false }),
      resetToastText({ video: false, transcript: true }),
      resetToastText({ video: false, transcript: false }),
    ]).toEqual(['Video and transcript files updated', 'Video file updated', 'Transcript file updated', 'No file updates needed']);
    expect(Object.values(RESET_TEXTS)).toHaveLength(4);
    expect(resetToastText({ video: true, transcript: true }, true)).toBe(
      "Video and transcript files updated in WordCut. The provider still has what you published: use 'Publish changes' to put the original back there.",
    );
  });

  it('builds the Export Failed toast', () => {
    expect(exportFailedToast({ message: 'Upload failed' })).toEqual({ title: 'Export Failed', description: 'Upload failed' });
    expect(exportFailedToast(null)).toEqual({ title: 'Export Failed', description: 'Failed to create export job' });
    expect(exportFailedToast({ message: ' ' }).description).toBe('Failed to create export job');
  });
});

describe('parseExportError', () => {
  it('keeps the running job an export_in_progress names, and only a job id', () => {
    const body = { statusCode: 409, code: 'export_in_progress', error: 'export_in_progress', message: 'This video is already being published.', jobId: 'export_0b1c-2d' };
    expect(parseExportError(httpError(409, JSON.stringify(body)))).toEqual({ error: 'export_in_progress', message: 'This video is already being published.', jobId: 'export_0b1c-2d' });
    expect(parseExportError(httpError(409, JSON.stringify({ ...body, jobId: '../../etc' })))).not.toHaveProperty('jobId');
    expect(parseExportError(httpError(409, JSON.stringify({ ...body, jobId: 42 })))).not.toHaveProperty('jobId');
  });

  it('reads a JSON export error body', () => {
    const body = JSON.stringify({
      statusCode: 429,
      code: 'quota_exceeded',
      error: 'quota_exceeded',
      message: 'Export quota exceeded. Please upgrade your plan or wait until the quota resets.',
      details: 'Daily limit of 2 exports reached; resets at 2025-03-16T00:00:00.000Z.',
      retryAfter: 3600,
      upgradeUrl: 'https://provider.test/upgrade',
    });
    expect(parseExportError(httpError(429, body))).toEqual({
      error: 'quota_exceeded',
      message: 'Export quota exceeded. Please upgrade your plan or wait until the quota resets.',
      details: 'Daily limit of 2 exports reached; resets at 2025-03-16T00:00:00.000Z.',
      retryAfter: 3600,
      upgradeUrl: 'https://provider.test/upgrade',
    });
  });

  it('reads the code from `code` when `error` is a reason phrase', () => {
    expect(parseExportError(httpError(409, JSON.stringify({ statusCode: 409, code: 'idempotency_conflict', error: 'Conflict', message: 'Key reused' })))).toEqual({
      error: 'idempotency_conflict',
      message: 'Key reused',
    });
    expect(parseExportError(httpError(400, JSON.stringify({ code: 'VALIDATION_FAILED', error: 'Bad Request', message: 'videoId: Invalid uuid', details: [{ path: 'videoId' }] })))).toEqual({
      error: 'export_failed',
      message: 'videoId: Invalid uuid',
      details: '[{"path":"videoId"}]',
    });
  });

  it('maps 401 and 403 to unauthorized', () => {
    expect(parseExportError(httpError(401, JSON.stringify({ code: 'UNAUTHORIZED', error: 'Unauthorized', message: 'Session token expired' })))).toEqual({
      error: 'unauthorized',
      message: 'Session token expired',
    });
    expect(parseExportError(httpError(403, 'Forbidden'))).toEqual({ error: 'unauthorized', message: 'JWT token required for export. Please refresh the page.', details: '403: Forbidden' });
  });

  it('keeps a non-JSON body as truncated details with the default message', () => {
    const html = `<html>${'x'.repeat(2000)}</html>`;
    const e = parseExportError(httpError(502, html));
    expect(e.error).toBe('export_failed');
    expect(e.message).toBe('Failed to create export job');
    expect(e.details!.startsWith('502: <html>')).toBe(true);
    expect(e.details!.length).toBe(MAX_DETAILS_LENGTH);
    expect(parseExportError(httpError(500, ''))).toEqual({ error: 'export_failed', message: 'Failed to create export job', details: '500' });
  });

  it('uses the call-specific fallback code', () => {
    expect(parseExportError(httpError(500, 'Internal Server Error'), ExportErrorCode.StatusFetchFailed)).toMatchObject({ error: 'status_fetch_failed', message: 'Failed to fetch job status' });
    expect(parseExportError(httpError(503, '{}'), 'retry_failed')).toEqual({ error: 'retry_failed', message: 'Failed to retry export job' });
  });

  it('reads an ApiError-like object (status and bodyText)', () => {
    const apiError = Object.assign(new Error('429: ...'), { status: 429, bodyText: JSON.stringify({ error: 'quota_exceeded', message: 'Over', retryAfter: '12.2' }) });
    expect(parseExportError(apiError)).toEqual({ error: 'quota_exceeded', message: 'Over', retryAfter: 13 });
  });

  it('drops retryAfter and upgradeUrl values the contract would refuse', () => {
    const e = parseExportError(httpError(429, JSON.stringify({ error: 'quota_exceeded', message: 'Over', retryAfter: -1, upgradeUrl: 'javascript:alert(1)' })));
    expect(e).toEqual({ error: 'quota_exceeded', message: 'Over' });
  });

  it('maps fetch network failures to network_error', () => {
    for (const msg of ['Failed to fetch', 'NetworkError when attempting to fetch resource.', 'Load failed', 'Network request failed']) {
      expect(parseExportError(new TypeError(msg))).toEqual({ error: 'network_error', message: 'Network error. Please check your connection.', details: msg });
    }
    const timeout = Object.assign(new Error('The operation timed out.'), { name: 'TimeoutError' });
    expect(parseExportError(timeout).error).toBe('network_error');
  });

  it('keeps other errors as the fallback with their own message', () => {
    expect(parseExportError(new Error('JWT token required for export. Please refresh the page.'))).toEqual({
      error: 'export_failed',
      message: 'JWT token required for export. Please refresh the page.',
    });
    expect(parseExportError(Object.assign(new Error('No token'), { error: 'unauthorized' }))).toEqual({ error: 'unauthorized', message: 'No token' });
    expect(parseExportError(new TypeError('x is not a function'))).toEqual({ error: 'export_failed', message: 'x is not a function' });
  });

  it('normalises an ExportError and handles strings and nothing', () => {
    expect(parseExportError({ error: 'token_refresh_failed', message: '' })).toEqual({ error: 'token_refresh_failed', message: 'Failed to refresh authentication. Please reload the page.' });
    expect(parseExportError('boom')).toEqual({ error: 'export_failed', message: 'boom' });
    expect(parseExportError('404: Not Found')).toEqual({ error: 'export_failed', message: 'Failed to create export job', details: '404: Not Found' });
    expect(parseExportError(undefined)).toEqual({ error: 'export_failed', message: 'Failed to create export job' });
    expect(parseExportError(null, 'retry_failed')).toEqual({ error: 'retry_failed', message: 'Failed to retry export job' });
  });

  it('always produces a contract-valid ExportError', () => {
    const inputs: unknown[] = [
      httpError(429, JSON.stringify({ error: 'quota_exceeded', message: 'm', retryAfter: 0.2, upgradeUrl: 'https://u.test/x?y=1' })),
      httpError(418, '[1,2]'),
      httpError(500, 'null'),
      new TypeError('Failed to fetch'),
      { weird: true },
      42,
      Symbol('s'),
    ];
    for (const input of inputs) expect(exportErrorSchema.safeParse(parseExportError(input)).success).toBe(true);
  });
});
