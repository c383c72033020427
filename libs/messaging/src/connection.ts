/** How a Messaging connects: its options and the NATS connection options they make. */
import type { NodeConnectionOptions } from '@nats-io/transport-node';
import type { Logger, ServiceMetrics } from '@wordcut/platform';

export interface MessagingOptions {
  servers: string;
  namespace: string;
  name: string;
  /**
   * Credentials (a service passes its NATS_USER, NATS_PASSWORD, NATS_TOKEN): a user with its
   * password, or a token, or none. Empty strings count as unset.
   */
  user?: string | undefined;
  pass?: string | undefined;
  token?: string | undefined;
  logger: Logger;
  metrics?: ServiceMetrics;
  /** how long JetStream remembers a Nats-Msg-Id to drop duplicates */
  duplicateWindowMs?: number;
  /** copies of each stream the services provision (3 on a three-node JetStream cluster); default 1 */
  streamReplicas?: number;
}

/**
 * The NATS connection options of a Messaging: its servers, its name, reconnecting for ever, and its
 * credentials (user + password, or token). Throws on half a user/password pair or on both kinds,
 * so a misconfigured service stops at start rather than connecting anonymously.
 */
export function natsConnectOptions(o: Pick<MessagingOptions, 'servers' | 'name' | 'user' | 'pass' | 'token'>): NodeConnectionOptions {
  const user = o.user || undefined;
  const pass = o.pass || undefined;
  const token = o.token || undefined;
  if (Boolean(user) !== Boolean(pass)) throw new Error('NATS credentials: set both NATS_USER and NATS_PASSWORD, or neither');
  if (token && user) throw new Error('NATS credentials: set NATS_USER/NATS_PASSWORD or NATS_TOKEN, not both');
  return {
    servers: o.servers.split(','),
    name: o.name,
    maxReconnectAttempts: -1,
    ...(user && pass ? { user, pass } : {}),
    ...(token ? { token } : {}),
  };
}
