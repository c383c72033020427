import { keyMomentsJobInputSchema, probeJobInputSchema, renderJobInputSchema, type JobKind, type KeyMomentsJobInput, type RenderJobInput } from '@wordcut/contracts';
import type { z } from 'zod';

export type ProbeJobInput = z.infer<typeof probeJobInputSchema>;

/** A request's input read the way its kind says: probe jobs probe an object, key-moment jobs analyse a video, every other kind renders. */
export type JobInput = { family: 'probe'; input: ProbeJobInput } | { family: 'render'; input: RenderJobInput } | { family: 'keymoments'; input: KeyMomentsJobInput };

/**
 * The request contract accepts any input shape for any kind (a union), so the kind decides which
 * shape is required here. A mismatch is a gateway bug: the caller fails the job with the message
 * instead of dispatching a command no worker could run.
 */
export function interpretJobInput(kind: JobKind, input: unknown): { ok: true; value: JobInput } | { ok: false; error: string } {
  if (kind === 'probe') {
    const p = probeJobInputSchema.safeParse(input);
    return p.success ? { ok: true, value: { family: 'probe', input: p.data } } : { ok: false, error: `invalid probe job input: ${p.error.message}` };
  }
  if (kind === 'keymoments') {
    const k = keyMomentsJobInputSchema.safeParse(input);
    return k.success ? { ok: true, value: { family: 'keymoments', input: k.data } } : { ok: false, error: `invalid keymoments job input: ${k.error.message}` };
  }
  const r = renderJobInputSchema.safeParse(input);
  return r.success ? { ok: true, value: { family: 'render', input: r.data } } : { ok: false, error: `invalid ${kind} job input: ${r.error.message}` };
}

/** Which video and user a job belongs to: render and key-moment jobs name both in their input, probe jobs only their user. */
export function jobOwner(kind: JobKind, input: unknown): { videoId: string | null; userId: string | null } {
  const parsed = interpretJobInput(kind, input);
  if (!parsed.ok) return { videoId: null, userId: null };
  if (parsed.value.family === 'probe') return { videoId: null, userId: parsed.value.input.userId ?? null };
  return { videoId: parsed.value.input.videoId, userId: parsed.value.input.userId };
}
