import { consumersOf, ExportStream, ExportSubjects, Streams, Subjects } from '@wordcut/contracts';

/**
 * What each service does on NATS, from its code (publishes, requests, serves, subscribes, the
 * streams it provisions and the durable consumers it pulls), and the NATS user permissions that
 * allow exactly that: one NATS user per service (docker/nats, the Helm chart's NATS users). The
 * chart check compares the chart's rendered permissions with these.
 */
export const NATS_SERVICES = ['gateway', 'media', 'jobs', 'export', 'analytics'] as const;
export type NatsService = (typeof NATS_SERVICES)[number];

interface ConsumerUse {
  stream: string;
  durable: string;
  /** relative filter subject: its dead letters go to dlq.<filter> */
  filter: string;
}

interface NatsUse {
  /** relative subjects published to (streams or core), and requests sent */
  publish: string[];
  /** relative subjects subscribed to (broadcasts, served requests) */
  subscribe: string[];
  /** relative streams created or updated at start */
  streams: string[];
  consumers: ConsumerUse[];
  /** relative streams whose stored messages are read by sequence or subject */
  readsMessages: string[];
  /** relative streams whose consumers' figures are read (the operators' queue view) */
  readsConsumerInfo: string[];
  /** relative streams whose MAX_DELIVERIES advisories are watched */
  watchesMaxDeliveries: string[];
}

/** A service's durable consumers, from the one consumer table. */
const consumerUses = (svc: NatsService): ConsumerUse[] => consumersOf(svc).map((c) => ({ stream: c.stream, durable: c.durable, filter: c.filterSubject }));

const S = { jobs: Streams.jobs.name, media: Streams.media.name, videos: Streams.videos.name, dlq: Streams.deadLetter.name, logs: Streams.logs.name, export: ExportStream.name };
const logs = (svc: NatsService) => `${Subjects.errorLog}.${svc}`;

export const NATS_USE: Record<NatsService, NatsUse> = {
  gateway: {
    publish: [`${Subjects.jobRequested}.*`, Subjects.jobCompleted, Subjects.mediaIngest, 'rpc.jobs.>', 'rpc.media.>', 'rpc.export.>', 'rpc.analytics.>', logs('gateway')],
    subscribe: [ExportSubjects.rpcSources],
    streams: [S.videos, S.media, S.dlq, S.jobs, S.export, S.logs],
    consumers: consumerUses('gateway'),
    readsMessages: [],
    readsConsumerInfo: [S.media],
    watchesMaxDeliveries: [],
  },
  media: {
    publish: [Subjects.jobStarted, Subjects.jobProgress, Subjects.jobCompleted, Subjects.jobFailed, 'videos.>', logs('media')],
    subscribe: [`${Subjects.jobCancel}.*`, Subjects.rpcMediaProbe, Subjects.rpcMediaWaveform],
    streams: [S.media, S.videos, S.jobs, S.dlq, S.logs],
    consumers: consumerUses('media'),
    readsMessages: [S.jobs, S.media],
    readsConsumerInfo: [],
    watchesMaxDeliveries: [S.media],
  },
  jobs: {
    publish: [`${Subjects.jobCancel}.*`, Subjects.jobFailed, Subjects.jobCancelled, Subjects.mediaProbe, Subjects.mediaRender, Subjects.mediaKeyMoments, logs('jobs')],
    subscribe: ['rpc.jobs.>'],
    streams: [S.jobs, S.media, S.dlq, S.logs],
    consumers: consumerUses('jobs'),
    readsMessages: [S.jobs],
    readsConsumerInfo: [],
    watchesMaxDeliveries: [],
  },
  export: {
    publish: [`${ExportSubjects.run}.*`, ExportSubjects.itemUploaded, ExportSubjects.webhook, ExportSubjects.rpcSources, Subjects.rpcJobGet, logs('export')],
    subscribe: ['rpc.export.>'],
    streams: [S.export, S.jobs, S.dlq, S.logs],
    consumers: consumerUses('export'),
    readsMessages: [S.export],
    readsConsumerInfo: [],
    watchesMaxDeliveries: [],
  },
  analytics: {
    publish: [logs('analytics')],
    subscribe: ['rpc.analytics.>'],
    streams: [S.jobs, S.logs, S.dlq],
    consumers: consumerUses('analytics'),
    readsMessages: [],
    readsConsumerInfo: [],
    watchesMaxDeliveries: [],
  },
};

export interface NatsPermissions {
  publish: { allow: string[] };
  subscribe: { allow: string[] };
  /** replies to the requests a service serves, and nothing else of `_INBOX.>` */
  allow_responses: true;
}

/** The NATS permissions of one service's user in namespace `ns` (NATS_NAMESPACE). */
export function natsPermissions(service: NatsService, ns: string): NatsPermissions {
  const u = NATS_USE[service];
  const subject = (rel: string) => `${ns}.${rel}`;
  const stream = (rel: string) => `${ns.toUpperCase()}_${rel}`;
  const publish = [
    ...u.publish.map(subject),
    // dead letters of what it consumes
    ...u.consumers.map((c) => subject(`${Subjects.deadLetterPrefix}.${c.filter}`)),
    '$JS.API.INFO',
    ...u.streams.flatMap((s) => ['INFO', 'CREATE', 'UPDATE'].map((op) => `$JS.API.STREAM.${op}.${stream(s)}`)),
    ...u.consumers.flatMap(({ stream: s, durable: d }) => [
      `$JS.API.CONSUMER.INFO.${stream(s)}.${d}`,
      `$JS.API.CONSUMER.CREATE.${stream(s)}.${d}`,
      `$JS.API.CONSUMER.CREATE.${stream(s)}.${d}.>`,
      `$JS.API.CONSUMER.DURABLE.CREATE.${stream(s)}.${d}`,
      `$JS.API.CONSUMER.DELETE.${stream(s)}.${d}`,
      `$JS.API.CONSUMER.MSG.NEXT.${stream(s)}.${d}`,
      `$JS.ACK.${stream(s)}.${d}.>`,
    ]),
    ...u.readsMessages.map((s) => `$JS.API.STREAM.MSG.GET.${stream(s)}`),
    ...u.readsConsumerInfo.map((s) => `$JS.API.CONSUMER.INFO.${stream(s)}.*`),
  ];
  const subscribe = [...u.subscribe.map(subject), ...u.watchesMaxDeliveries.map((s) => `$JS.EVENT.ADVISORY.CONSUMER.MAX_DELIVERIES.${stream(s)}.*`), '_INBOX.>'];
  return { publish: { allow: unique(publish) }, subscribe: { allow: unique(subscribe) }, allow_responses: true };
}

/**
 * A nats-server `authorization` block with one user per service: `<prefix>-<service>`, its password
 * read from the server's environment variable `NATS_PASSWORD_<SERVICE>` (nats-server resolves
 * `$NAME` from the environment), so the file holds no secret.
 */
export function natsAuthorizationConf(ns: string, o: { userPrefix?: string; indent?: string } = {}): string {
  const prefix = o.userPrefix ?? 'wordcut';
  const pad = o.indent ?? '';
  const list = (xs: string[], depth: string) => xs.map((x) => `${depth}${JSON.stringify(x)}`).join('\n');
  const users = NATS_SERVICES.map((svc) => {
    const p = natsPermissions(svc, ns);
    return [
      `${pad}    {`,
      `${pad}      user: ${JSON.stringify(`${prefix}-${svc}`)}`,
      `${pad}      password: $NATS_PASSWORD_${svc.toUpperCase()}`,
      `${pad}      permissions: {`,
      `${pad}        publish: { allow: [`,
      list(p.publish.allow, `${pad}          `),
      `${pad}        ] }`,
      `${pad}        subscribe: { allow: [`,
      list(p.subscribe.allow, `${pad}          `),
      `${pad}        ] }`,
      `${pad}        allow_responses: true`,
      `${pad}      }`,
      `${pad}    }`,
    ].join('\n');
  });
  return [`${pad}authorization {`, `${pad}  users: [`, ...users, `${pad}  ]`, `${pad}}`, ''].join('\n');
}

function unique(xs: string[]): string[] {
  return [...new Set(xs)];
}
