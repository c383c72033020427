import { ErrorCode } from '@wordcut/contracts';
import { AppError } from '@wordcut/platform';

/** An export error: `error` is the code the browser reads, beside the usual body. */
export function exportError(status: number, error: string, message: string, more: { details?: string; retryAfter?: number; upgradeUrl?: string; jobId?: string } = {}): AppError {
  return new AppError(status, error === 'quota_exceeded' ? ErrorCode.QuotaExceeded : error, message, undefined, { error, ...more });
}
