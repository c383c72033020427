import { ErrorCode, type ErrorBody } from '@wordcut/contracts';

/** An error with an HTTP status and a machine-readable code; the gateway's filter renders it. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
    /**
     * Fields merged into the error body, e.g. the export error shape (`error` as the
     * code, `retryAfter`, `upgradeUrl`). A numeric `retryAfter` also sets the Retry-After header.
     */
    readonly extra?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

export function reasonPhrase(status: number): string {
  return REASONS[status] ?? (status >= 500 ? 'Server Error' : 'Client Error');
}

export function errorBody(statusCode: number, code: string, message: string, correlationId?: string, details?: unknown): ErrorBody {
  const body: ErrorBody = { statusCode, code, error: reasonPhrase(statusCode), message };
  if (correlationId) body.correlationId = correlationId;
  if (details !== undefined) body.details = details;
  return body;
}

export const defaultCodeForStatus = (status: number): string =>
  status === 400
    ? ErrorCode.ValidationFailed
    : status === 401
      ? ErrorCode.Unauthorized
      : status === 403
        ? ErrorCode.Forbidden
        : status === 404
          ? ErrorCode.NotFound
          : status === 409
            ? ErrorCode.Conflict
            : status === 413
              ? ErrorCode.PayloadTooLarge
              : status === 503
                ? ErrorCode.ServiceUnavailable
                : ErrorCode.Internal;
