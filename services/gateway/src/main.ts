import { startTracing } from '@wordcut/platform';
startTracing('gateway');

import { type DynamicModule, Module } from '@nestjs/common';
import { APP_GUARD, APP_INTERCEPTOR } from '@nestjs/core';
import { Streams } from '@wordcut/contracts';
import { Messaging, relayErrorLogs } from '@wordcut/messaging';
import { assertMigrated, natsSettings, runMain, runService, s3Settings } from '@wordcut/platform';
import { HttpProviderClient } from '@wordcut/provider';
import { S3ObjectStorage } from '@wordcut/storage';
import { loadGatewayConfig, providerApiUrl, SCHEMA, SERVICE } from './config';
import { PublishingController } from './publishing/publishing.controller';
import { PUBLISHING, PublishingService } from './publishing/publishing';
import { gatewayDataSource } from './data-source';
import { GATEWAY_DEPS, JobsController, type GatewayDeps } from './jobs.controller';
import { IngestCoordinator } from './library/ingest';
import { ProviderSessionsController } from './library/provider-sessions.controller';
import { TranscriptStore } from './library/transcript-store';
import { VideoStore } from './library/video-store';
import { LIBRARY_DEPS, VideosController, type LibraryDeps } from './library/videos.controller';
import { EditService } from './library/edits';
import { RetentionSweeper } from './library/retention';
import { ClipStore } from './library/clip-store';
import { RenderStore } from './library/render-store';
import { EDIT_SERVICE, EditsController } from './library/edits.controller';
import { ClipsController } from './library/clips.controller';
import { SILENCE_SERVICE, SilenceController } from './library/silence.controller';
import { SilenceService } from './library/silence';
import { SilenceAnalysisStore } from './library/silence-store';
import { KEY_MOMENTS_SERVICE, KeyMomentsController } from './library/key-moments.controller';
import { KeyMomentsService } from './library/key-moments';
import { KeyMomentStore } from './library/key-moment-store';
import { KeyMomentsLlm } from './library/key-moments-llm';
import { SessionAuth } from './session-auth';
import { AuthController } from './auth/auth.controller';
import { GatewayTokens } from './auth/gateway-tokens';
import { identityFromConfig } from './auth/from-config';
import { IdentityGuard, IdentityResolver } from './auth/identity.guard';
import { ActiveJobs, RateLimitStore } from './auth/limits';
import { JSON_BODY_LIMIT, jsonBodiesProvider } from './auth/json-bodies';
import { RefusalLog } from './refusal-log';
import { OperatorAccess } from './operator/operator-access';
import { OperatorController } from './operator/operator.controller';
import { OperatorFigures } from './operator/operator-figures';
import { OperatorFiguresController } from './operator/operator-figures.controller';
import { OPERATOR_SERVICE, OperatorService } from './operator/operator-service';
import { OperatorSessionStore } from './operator/operator-session-store';
import { OperatorVideos } from './operator/operator-videos';
import { VideoDeletion } from './operator/video-deletion';
import { VideoDeletionController } from './operator/video-deletion.controller';

@Module({})
class GatewayModule {
  static register(deps: GatewayDeps, library: LibraryDeps, auth: SessionAuth, edits: EditService, publishing: PublishingService, silence: SilenceService, keyMoments: KeyMomentsService, operator: OperatorService): DynamicModule {
    return {
      module: GatewayModule,
      controllers: [AuthController, PublishingController, EditsController, SilenceController, KeyMomentsController, ClipsController, JobsController, VideosController, ProviderSessionsController, OperatorController, OperatorFiguresController, VideoDeletionController],
      providers: [
        // every route needs an identity unless marked @Public
        { provide: APP_GUARD, useClass: IdentityGuard },
        IdentityResolver,
        // JSON bodies: read after the identity on the large-body routes
        jsonBodiesProvider,
        // oversized lists refused: reported to the operators' error log
        { provide: APP_INTERCEPTOR, useClass: RefusalLog },
        { provide: GatewayTokens, useValue: library.tokens },
        { provide: PUBLISHING, useValue: publishing },
        { provide: GATEWAY_DEPS, useValue: deps },
        { provide: LIBRARY_DEPS, useValue: library },
        { provide: SessionAuth, useValue: auth },
        { provide: EDIT_SERVICE, useValue: edits },
        { provide: SILENCE_SERVICE, useValue: silence },
        { provide: KEY_MOMENTS_SERVICE, useValue: keyMoments },
        // operator routes (analytics dashboard): the guard reads their session cookie
        { provide: OperatorAccess, useValue: operator.access },
        { provide: OPERATOR_SERVICE, useValue: operator },
      ],
    };
  }
}

export async function main() {
  return runService({
    name: SERVICE,
    loadConfig: () => loadGatewayConfig(),
    // the gateway reads JSON bodies itself (jsonBodies): large ones only after the token verifies
    jsonBodyLimit: JSON_BODY_LIMIT,
    trustProxy: (config) => config.TRUST_PROXY,
    create: async ({ config, logger, metrics, errorLog }) => {
      const ds = gatewayDataSource(config.DATABASE_URL, config.DATABASE_POOL_SIZE);
      await ds.initialize();
      await assertMigrated(ds, SCHEMA);
      const storage = new S3ObjectStorage(s3Settings(config));
      await storage.ensureBucket();
      const bus = await Messaging.connect({ ...natsSettings(config), name: SERVICE, logger, metrics });
      await bus.provision([Streams.jobs, Streams.media, Streams.videos], []);
      const videos = new VideoStore(ds);
      const transcripts = new TranscriptStore(ds);
      const ingest = new IngestCoordinator(ds, bus, storage, videos, transcripts, logger);
      const renders = new RenderStore(ds);
      const clips = new ClipStore(ds);
      const activeJobs = new ActiveJobs(config.MAX_ACTIVE_JOBS_PER_USER, renders, videos);
      const edits = new EditService(ds, bus, storage, videos, transcripts, logger, activeJobs, renders, clips);
      const { auth, tokens } = identityFromConfig(config);
      const rateLimits = new RateLimitStore(ds);
      const library: LibraryDeps = { config, bus, storage, logger, videos, transcripts, ingest, tokens, rateLimits, activeJobs, clips, renders };
      const silenceAnalyses = new SilenceAnalysisStore(ds);
      const keyMomentStore = new KeyMomentStore(ds);
      const deletion = new VideoDeletion({ ds, bus, storage, logger, videos, transcripts, clips, keyMoments: keyMomentStore, renders, silence: silenceAnalyses, rpcTimeoutMs: config.RPC_TIMEOUT_MS });
      const operatorAccess = new OperatorAccess(new OperatorSessionStore(ds), rateLimits, {
        password: config.ANALYTICS_PASSWORD ?? null,
        sessionTtlSec: config.ANALYTICS_SESSION_TTL_SECONDS,
        failuresPerWindow: config.ANALYTICS_LOGIN_FAILURES_PER_15_MIN,
      });
      const operator = new OperatorService(operatorAccess, new OperatorVideos(videos, transcripts, clips, keyMomentStore), deletion, videos, config.ANALYTICS_COOKIE_SECURE, new OperatorFigures(bus, { workQueueMetrics: config.MEDIA_QUEUE_METRICS }));
      const retention = new RetentionSweeper(ds, videos, storage, rateLimits, logger, { days: config.RETENTION_DAYS, intervalMs: config.RETENTION_SWEEP_INTERVAL_MS }, deletion);
      const silence = new SilenceService(library, edits, silenceAnalyses);
      const llm = config.KEY_MOMENTS_LLM_URL
        ? new KeyMomentsLlm({ url: config.KEY_MOMENTS_LLM_URL, model: config.KEY_MOMENTS_LLM_MODEL!, apiKey: config.KEY_MOMENTS_LLM_API_KEY, timeoutMs: config.KEY_MOMENTS_LLM_TIMEOUT_MS }, logger)
        : null;
      const keyMoments = new KeyMomentsService(library, edits, keyMomentStore, llm, config.KEY_MOMENTS_WAIT_MS);
      const publishing = new PublishingService(library, edits, auth, new HttpProviderClient({ apiUrl: providerApiUrl(config) }));
      return {
        module: GatewayModule.register({ config, bus, storage, logger, rateLimits: library.rateLimits }, library, auth, edits, publishing, silence, keyMoments, operator),
        healthChecks: [
          { name: 'postgres', check: async () => void (await ds.query('SELECT 1')) },
          { name: 'nats', check: () => bus.ping() },
          { name: 's3', check: () => storage.ping() },
        ],
        start: async () => {
          await relayErrorLogs(bus, errorLog, SERVICE);
          await ingest.start();
          await edits.start();
          await publishing.start();
          await keyMoments.start();
          retention.start();
        },
        close: async () => {
          retention.stop();
          await bus.close();
          await ds.destroy();
        },
      };
    },
  });
}

if (require.main === module) runMain(SERVICE, main);
