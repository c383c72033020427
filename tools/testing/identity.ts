/**
 * Identities for tests that call the gateway: every route but health, metrics, the upload page's
 * settings and POST /api/auth/session needs a bearer token, and objects answer only their owner.
 */
import { z } from 'zod';

const sessionSchema = z.object({ token: z.string(), userId: z.string(), expiresAt: z.string() });
export type GatewaySessionForTest = z.infer<typeof sessionSchema>;

/** A new gateway session (the upload form's identity) from the gateway at `gatewayUrl`. */
export async function startGatewaySession(gatewayUrl: string): Promise<GatewaySessionForTest> {
  const res = await fetch(`${gatewayUrl}/api/auth/session`, { method: 'POST' });
  if (res.status !== 201) throw new Error(`POST /api/auth/session answered ${res.status}: ${await res.text()}`);
  return sessionSchema.parse(await res.json());
}

/** `Authorization: Bearer <token>`. */
export const bearer = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}` });

/** `fetch` for one identity: its bearer header on every call unless the call sets its own. */
export function fetchAs(token: string): typeof fetch {
  return (input, init = {}) => {
    const headers = new Headers(init.headers);
    if (!headers.has('authorization')) headers.set('authorization', `Bearer ${token}`);
    return fetch(input, { ...init, headers });
  };
}
