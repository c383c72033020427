import { createParamDecorator, type ExecutionContext, SetMetadata } from '@nestjs/common';
import type { VerifiedProviderToken } from '@wordcut/provider';

export { Public } from '@wordcut/platform';

/**
 * Who is calling. `userId` is what objects record as their owner: `provider:<issuer>:<sub>` for a
 * provider session (providerOwnerId), `wordcut:<uuid>` for a gateway session (upload form).
 */
export interface Identity {
  userId: string;
  /** how the identity was proven */
  via: 'provider' | 'gateway' | 'media-url';
  /** the provider session's claims (provider tokens only) */
  provider?: VerifiedProviderToken;
  /** when the gateway session began, seconds (gateway sessions only; refreshes keep it) */
  sessionStartedAt?: number;
}

/** A signed-in operator (analytics dashboard): the session the cookie named. */
export interface OperatorCaller {
  idHash: string;
  csrfToken: string;
  expiresAt: Date;
}

export type RequestWithIdentity = { identity?: Identity; operator?: OperatorCaller };

/**
 * Metadata: who may call an operator route. 'operator': the operator session cookie only (an
 * editor's bearer token opens nothing there); 'owner-or-operator': the video's owner by bearer
 * token, or the operator by cookie. State-changing calls by cookie also need the CSRF header.
 */
export const OPERATOR_ROUTE = 'wordcut:operator-route';
export type OperatorRouteKind = 'operator' | 'owner-or-operator';
export const OperatorRoute = (kind: OperatorRouteKind = 'operator'): ClassDecorator & MethodDecorator => SetMetadata(OPERATOR_ROUTE, kind);

/** The operator resolved by the identity guard on an operator route. */
export const Operator = createParamDecorator((_: unknown, ctx: ExecutionContext): OperatorCaller => {
  const operator = ctx.switchToHttp().getRequest<RequestWithIdentity>().operator;
  if (!operator) throw new Error('Operator: no operator session on this request (the route is not an operator route)');
  return operator;
});

/** Metadata: the route also accepts a signed media URL (for `<video>` and download links). */
export const SIGNED_MEDIA_ROUTE = 'wordcut:signed-media';
export const SignedMedia = (): MethodDecorator => SetMetadata(SIGNED_MEDIA_ROUTE, true);

/** How a publishing route says a token is missing (its own message and code). */
export interface ExportRefusal {
  missingMessage: string;
  missingCode?: string;
}
/** Metadata: refusals use the export error body (publishing routes), with the route's own missing-token words. */
export const EXPORT_REFUSALS = 'wordcut:export-refusals';
export const ExportRefusals = (refusal: ExportRefusal = { missingMessage: 'Authentication required' }): ClassDecorator & MethodDecorator =>
  SetMetadata(EXPORT_REFUSALS, refusal);

/** The caller resolved by the identity guard. A route without one is a bug: it must be @Public and not ask. */
export const Caller = createParamDecorator((_: unknown, ctx: ExecutionContext): Identity => {
  const identity = ctx.switchToHttp().getRequest<RequestWithIdentity>().identity;
  if (!identity) throw new Error('Caller: no identity on this request (a @Public route asked for one)');
  return identity;
});
