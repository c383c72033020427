import { z } from 'zod';

/**
 * The provider's session token: a JWT the provider signs and hands to the browser
 * (`?token=` on the editor URL). Registered claims (iss, aud, exp, iat, sub) are checked by the
 * verifier; these are WordCut's private claims, validated after the signature.
 */
export const planSchema = z.object({
  tier: z.string(),
  quotas: z.object({
    exportsPerDay: z.number().int().nullable().optional(),
    exportsPerMonth: z.number().int().nullable().optional(),
  }),
});
export type Plan = z.infer<typeof planSchema>;

export const usageSnapshotSchema = z.object({
  exportsToday: z.number().int().nonnegative().default(0),
  exportsThisMonth: z.number().int().nonnegative().default(0),
  nextResetTime: z.string().optional(),
});
export type UsageSnapshot = z.infer<typeof usageSnapshotSchema>;

export const providerMediaSchema = z.object({
  videoUrl: z.string().url().optional(),
  vttUrl: z.string().url().optional(),
  wordBywordUrl: z.string().url().optional(),
  uploadUrlVideo: z.string().url().optional(),
  uploadUrlVtt: z.string().url().optional(),
  uploadUrlWordByword: z.string().url().optional(),
});
export type ProviderMedia = z.infer<typeof providerMediaSchema>;

export const providerTokenClaimsSchema = z.object({
  /** the provider's user id */
  sub: z.string().min(1),
  /** the editing session; one WordCut video per session id */
  sessionId: z.string().min(1).max(200),
  /** the provider's id of the video being edited */
  videoId: z.string().min(1).max(200),
  title: z.string().max(300).optional(),
  plan: planSchema,
  usageSnapshot: usageSnapshotSchema,
  languageCode: z.string().min(2).max(35).optional(),
  media: providerMediaSchema.optional(),
  isClone: z.boolean().optional(),
});
export type ProviderTokenClaims = z.infer<typeof providerTokenClaimsSchema>;

/** The provider's word-by-word JSON (optional, preferred over the VTT when the token names it). */
export const wordByWordFileSchema = z.object({
  languageCode: z.string().optional(),
  words: z
    .array(
      z.object({
        text: z.string(),
        start: z.number().nonnegative(),
        end: z.number().nonnegative(),
        confidence: z.number().min(0).max(1).optional(),
      }),
    )
    .max(200_000),
});
export type WordByWordFile = z.infer<typeof wordByWordFileSchema>;
