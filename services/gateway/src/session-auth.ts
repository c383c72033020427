import { ErrorCode } from '@wordcut/contracts';
import { AppError } from '@wordcut/platform';
import { bearerToken, ProviderTokenError, type ProviderTokenVerifier, type VerifiedProviderToken } from '@wordcut/provider';
import { exportError } from './publishing/export-error';

/** How a refused token answers; an unreachable key set is our outage (503), not the caller's fault. */
type Refusal = (status: 401 | 503, err: ProviderTokenError) => AppError;

/** Library routes: the usual error body, with the token error code as `reason`. */
const libraryRefusal: Refusal = (status, err) =>
  new AppError(status, status === 503 ? ErrorCode.ServiceUnavailable : ErrorCode.Unauthorized, err.message, { reason: err.code });

/** Publishing routes: the export error body, with the token error code as `details`. */
const exportRefusal: Refusal = (status, err) =>
  status === 503 ? exportError(503, 'service_unavailable', err.message) : exportError(401, 'unauthorized', err.message, { details: err.code });

/**
 * Who is calling: the provider session token of a request, verified, with a refused
 * token mapped to an HTTP error in one place. The two route families only differ in the error body.
 */
export class SessionAuth {
  constructor(private readonly tokens: ProviderTokenVerifier) {}

  /** Library routes: the claims of the bearer token; without one, null, or 401 with `missingMessage` when required. */
  verifyBearer(authorization: string | undefined, o: { required: true; missingMessage?: string }): Promise<VerifiedProviderToken>;
  verifyBearer(authorization: string | undefined, o: { required: boolean; missingMessage?: string }): Promise<VerifiedProviderToken | null>;
  async verifyBearer(
    authorization: string | undefined,
    { required, missingMessage = 'Authentication required' }: { required: boolean; missingMessage?: string },
  ): Promise<VerifiedProviderToken | null> {
    const token = bearerToken(authorization);
    if (!token) {
      if (required) throw new AppError(401, ErrorCode.Unauthorized, missingMessage);
      return null;
    }
    return this.verified(token, libraryRefusal);
  }

  /**
   * Publishing routes: the claims of `token` (taken from the header, or an export request's body);
   * a missing one answers 401 `missingCode` with `missingMessage`.
   */
  async verifyForExport(token: string | null | undefined, missingMessage: string, missingCode = 'unauthorized'): Promise<VerifiedProviderToken> {
    if (!token) throw exportError(401, missingCode, missingMessage);
    return this.verified(token, exportRefusal);
  }

  private async verified(token: string, refusal: Refusal): Promise<VerifiedProviderToken> {
    try {
      return await this.tokens.verify(token);
    } catch (err) {
      if (err instanceof ProviderTokenError) throw refusal(err.code === 'KEYS_UNAVAILABLE' ? 503 : 401, err);
      throw err;
    }
  }
}
