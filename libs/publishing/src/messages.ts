/**
 * Every user-facing text of publishing, in one place so the browser, the
 * gateway and the export service say the same thing, and the error parsing that turns a failed call
 * into an {@link ExportError}. Quota texts live in quota.ts, progress texts in progress.ts.
 * Pure: no React, DOM, Node APIs or IO.
 */
import type { ExportError } from '@wordcut/contracts';

// ---- header and dialogs ----

export const REVERT_BUTTON_LABEL = 'Revert to Original';
export const PUBLISH_BUTTON_LABEL = 'Publish changes';
export const PUBLISH_DIALOG_TITLE = 'Publish changes';
export const MAIN_VIDEO_GROUP = 'Main Video';
export const SUBTITLES_GROUP = 'Subtitles';
export const CLIPS_GROUP = 'Clips';
export const CLONE_TOGGLE_LABEL = 'Publish changes to new video (clone)';
export const CANCEL_LABEL = 'Cancel';
export const OK_LABEL = 'OK';
export const CLONING_LABEL = 'Cloning video...';
export const PUBLISHING_LABEL = 'Publishing...';

export const REVERT_DIALOG_TITLE = 'Are you sure you want to revert to the original?';
export const REVERT_DIALOG_TEXT = 'This will delete all clips and changes.';
export const RESETTING_SESSION_TITLE = 'Resetting Session';

/** The export progress dialog's title; the provider's name as the product shows it. */
export function exportingTitle(providerName: string): string {
  return `Exporting to ${providerName}`;
}

export const UPGRADE_LINK_TEXT = 'Upgrade your plan';
export const UPGRADE_BUTTON_LABEL = 'Upgrade Plan';
export const TECHNICAL_DETAILS_LABEL = 'Technical details';

// ---- validation ----

export const SELECT_AT_LEAST_ONE = 'Please select at least one item to export';
export const CLIPS_PROCESSING_TOOLTIP = 'Waiting for clips to finish processing...';
export const PUBLISH_PREREQUISITES_MISSING = 'Video or authentication token missing';
export const CLONED_TOKEN_MISMATCH = 'Export delayed - Video data is updating, please try again in a moment';
export const CLONED_TOKEN_UNPARSEABLE = 'Failed to process cloned video token';

/** Calls made without a token. */
export const NO_AUTH_TOKEN = 'No authentication token';
export const EXPORT_TOKEN_REQUIRED = 'JWT token required for export. Please refresh the page.';
export const STATUS_TOKEN_REQUIRED = 'Job ID and token required';
export const RESET_TOKEN_REQUIRED = 'JWT token required';

// ---- toasts ----

export const EXPORT_STARTED_TITLE = 'Export Started';

/** 'Export Started' toast text; 'item(s)' is written literally, whatever the count. */
export function uploadingText(count: number, providerName: string): string {
  return `Uploading ${count} item(s) to ${providerName}`;
}

export const EXPORT_RETRYING_TITLE = 'Export Retrying';
/** Our addition: publishing while the video's previous export still runs shows that one instead. */
export const EXPORT_IN_PROGRESS_TITLE = 'Export in progress';
export const EXPORT_COMPLETE_TITLE = 'Export Complete';
export const EXPORT_FAILED_TITLE = 'Export Failed';
export const EXPORT_CREATE_FAILED = 'Failed to create export job';
export const RETRY_FAILED_TITLE = 'Retry Failed';
export const RESET_FAILED_TITLE = 'Reset Failed';
export const RESET_FAILED_FALLBACK = 'Failed to reset session';
export const SESSION_RESET_TITLE = 'Session Reset';
export const RESET_COMPLETED_TITLE = 'Reset Completed';
export const RESET_DELAYED_TEXT = 'Session reset but some updates may be delayed';

export const VIDEO_CLONED_TITLE = 'Video cloned';
export const VIDEO_CLONED_TEXT = 'Exporting to new video...';
export const CANNOT_CLONE_TITLE = 'Cannot clone';
export const ALREADY_A_CLONE_TEXT = 'This video is already a clone';
export const CLONE_FAILED_TITLE = 'Clone failed';
export const VIDEO_ID_NOT_AVAILABLE = 'Video ID not available';
export const CLONE_REQUEST_FAILED = 'Clone request failed';

export const CLIP_DELETED_TITLE = 'Clip deleted';
export const DELETE_FAILED_TITLE = 'Delete failed';
export const DELETE_CLIP_FAILED = 'Failed to delete clip';
export const CREATE_CLIP_FAILED = 'Failed to create clip';
export const FETCH_CLIPS_FAILED = 'Failed to fetch clips';

/** The progress dialog's message for a failed job without one of its own. */
export const EXPORT_FAILED_DEFAULT = 'Export failed. Please try again.';

// ---- error screen ----

export const ERROR_SCREEN_TITLE = 'Something went wrong';
export const ERROR_SCREEN_TEXT = 'An error occurred while processing your video. This might be due to a temporary issue.';
export const RELOAD_PAGE_LABEL = 'Reload Page';
export const TRY_AGAIN_LABEL = 'Try Again';

/** A toast's title and description. */
export interface ToastText {
  title: string;
  description: string;
}

/** The four 'Session Reset' texts, by what the reset changed. */
export const RESET_TEXTS = Object.freeze({
  both: 'Video and transcript files updated',
  video: 'Video file updated',
  transcript: 'Transcript file updated',
  none: 'No file updates needed',
} as const);

/** Added when the provider still holds what was published: the revert changed WordCut only. */
export const RESET_PROVIDER_TEXT = "The provider still has what you published: use 'Publish changes' to put the original back there.";

/** The 'Session Reset' toast text for a reset answer's filesUpdated (and whether the provider still holds the published edit). */
export function resetToastText(filesUpdated: { video: boolean; transcript: boolean }, providerHasEdits = false): string {
  const files =
    filesUpdated.video && filesUpdated.transcript ? RESET_TEXTS.both : filesUpdated.video ? RESET_TEXTS.video : filesUpdated.transcript ? RESET_TEXTS.transcript : RESET_TEXTS.none;
  return providerHasEdits ? `${files} in WordCut. ${RESET_PROVIDER_TEXT}` : files;
}

// ---- export error codes ----

/** The `error` codes of an {@link ExportError} the client and the services use. */
export const ExportErrorCode = {
  Unauthorized: 'unauthorized',
  TokenRefreshFailed: 'token_refresh_failed',
  ExportFailed: 'export_failed',
  NetworkError: 'network_error',
  StatusFetchFailed: 'status_fetch_failed',
  RetryFailed: 'retry_failed',
  QuotaExceeded: 'quota_exceeded',
  InvalidRequest: 'invalid_request',
  CloneFailed: 'clone_failed',
  /** another export of the video is running; `jobId` names it (the dialog follows that one) */
  ExportInProgress: 'export_in_progress',
} as const;
export type ExportErrorCode = (typeof ExportErrorCode)[keyof typeof ExportErrorCode];

/** The default message of each client-side error code. */
export const EXPORT_ERROR_MESSAGES: Readonly<Record<string, string>> = Object.freeze({
  unauthorized: EXPORT_TOKEN_REQUIRED,
  token_refresh_failed: 'Failed to refresh authentication. Please reload the page.',
  export_failed: EXPORT_CREATE_FAILED,
  network_error: 'Network error. Please check your connection.',
  status_fetch_failed: 'Failed to fetch job status',
  retry_failed: 'Failed to retry export job',
  invalid_request: STATUS_TOKEN_REQUIRED,
  clone_failed: CLONE_REQUEST_FAILED,
});

/** The 'Export Failed' toast: the error's message, or 'Failed to create export job'. */
export function exportFailedToast(error: Pick<ExportError, 'message'> | null | undefined): ToastText {
  const message = error?.message?.trim();
  return { title: EXPORT_FAILED_TITLE, description: message || EXPORT_CREATE_FAILED };
}

// ---- parsing a failed call ----

/** The longest non-JSON body text kept in `details` (an HTML error page must not flood the dialog). */
export const MAX_DETAILS_LENGTH = 500;

const CODE_LIKE = /^[a-z][a-z0-9_]*$/;
const STATUS_MESSAGE = /^(\d{3}): ([\s\S]*)$/;
const NETWORK_MESSAGE = /failed to fetch|networkerror|network request failed|load failed|network error/i;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const nonEmpty = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v.trim() : undefined);
const codeLike = (v: unknown): string | undefined => (typeof v === 'string' && CODE_LIKE.test(v) ? v : undefined);

function truncate(text: string): string {
  return text.length > MAX_DETAILS_LENGTH ? `${text.slice(0, MAX_DETAILS_LENGTH - 1)}…` : text;
}

/** A positive whole number of seconds (the contract's retryAfter), from a number or numeric string. */
function positiveSeconds(v: unknown): number | undefined {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isFinite(n) && n > 0 ? Math.ceil(n) : undefined;
}

/** Only absolute http(s) URLs are offered as upgrade links (opened in a new tab). */
function httpUrl(v: unknown): string | undefined {
  const s = nonEmpty(v);
  return s && /^https?:\/\/[^\s/?#]+[^\s]*$/i.test(s) ? s : undefined;
}

function detailsText(v: unknown): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'string') return nonEmpty(v) ? truncate(v.trim()) : undefined;
  try {
    return truncate(JSON.stringify(v));
  } catch {
    return undefined;
  }
}

function build(code: string, message: string | undefined, rest: { details?: string; retryAfter?: number; upgradeUrl?: string; jobId?: string }): ExportError {
  const out: ExportError = { error: code, message: message ?? EXPORT_ERROR_MESSAGES[code] ?? EXPORT_CREATE_FAILED };
  if (rest.details !== undefined) out.details = rest.details;
  if (rest.retryAfter !== undefined) out.retryAfter = rest.retryAfter;
  if (rest.upgradeUrl !== undefined) out.upgradeUrl = rest.upgradeUrl;
  if (rest.jobId !== undefined) out.jobId = rest.jobId;
  return out;
}

/** A job id as the server names one (`export_in_progress`, a remembered export): a short token of id characters. */
export const isJobId = (v: unknown): v is string => typeof v === 'string' && /^[A-Za-z0-9_-]{1,100}$/.test(v);

/** An error body that already is an ExportError (or close to one), normalised to the contract. */
function fromBody(body: Record<string, unknown>, code: string): ExportError {
  return build(code, nonEmpty(body['message']), {
    details: detailsText(body['details']),
    retryAfter: positiveSeconds(body['retryAfter']),
    upgradeUrl: httpUrl(body['upgradeUrl']),
    jobId: isJobId(body['jobId']) ? body['jobId'] : undefined,
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** A non-OK answer: status and body text (`<status>: <body text or status text>`). */
function fromHttp(status: number, bodyText: string, fallback: string): ExportError {
  const body = parseJson(bodyText);
  const auth = status === 401 || status === 403;
  if (isRecord(body)) {
    const code = auth ? ExportErrorCode.Unauthorized : (codeLike(body['error']) ?? codeLike(body['code']) ?? fallback);
    return fromBody(body, code);
  }
  const text = bodyText.trim();
  return build(auth ? ExportErrorCode.Unauthorized : fallback, undefined, { details: text ? truncate(`${status}: ${text}`) : `${status}` });
}

/**
 * Turns whatever a publishing call threw into an {@link ExportError} the dialog and toasts show:
 * - an error whose message is `<status>: <body text>` (the client's format), or an
 *   object with `status` and `bodyText` (libs/ui's ApiError): a JSON body's error, message,
 *   details, retryAfter and upgradeUrl are read; 401 and 403 are `unauthorized`; a body that is
 *   not JSON goes to `details` and the code's default message is used;
 * - a fetch network failure (a TypeError such as 'Failed to fetch', or a TimeoutError): `network_error`;
 * - an object that already carries `error` and `message` (an ExportError): normalised;
 * - anything else: `fallback` (default `export_failed`) with its message, or the error's own message.
 * `fallback` names the call: `status_fetch_failed` for status polling, `retry_failed` for retry.
 */
export function parseExportError(e: unknown, fallback: string = ExportErrorCode.ExportFailed): ExportError {
  if (isRecord(e) || e instanceof Error) {
    const r = e as unknown as Record<string, unknown>;
    if (typeof r['status'] === 'number' && typeof r['bodyText'] === 'string') {
      return fromHttp(r['status'], r['bodyText'], fallback);
    }
    const message = typeof r['message'] === 'string' ? r['message'] : '';
    const m = STATUS_MESSAGE.exec(message);
    if (m) return fromHttp(Number(m[1]), m[2]!, fallback);
    const name = typeof r['name'] === 'string' ? r['name'] : '';
    if ((e instanceof TypeError && NETWORK_MESSAGE.test(message)) || name === 'TimeoutError' || name === 'NetworkError') {
      return build(ExportErrorCode.NetworkError, undefined, { details: nonEmpty(message) });
    }
    const code = codeLike(r['error']) ?? codeLike(r['code']) ?? fallback;
    return fromBody({ ...r, message }, code);
  }
  if (typeof e === 'string' && e.trim()) {
    const m = STATUS_MESSAGE.exec(e);
    if (m) return fromHttp(Number(m[1]), m[2]!, fallback);
    return build(fallback, e.trim(), {});
  }
  return build(fallback, undefined, {});
}
