import { startTracing } from '@wordcut/platform';
startTracing('gateway');

import { type DynamicModule, Module, type ValueProvider } from '@nestjs/common';
import { APP_GUARD, APP_INTERCEPTOR } from '@nestjs/core';
import { Streams } from '@wordcut/contracts';
import { Messaging, relayErrorLogs } from '@wordcut/messaging';
import { assertMigrated, natsSettings, runMain, runService, s3Settings } from '@wordcut/platform';
import { HttpProviderClient } from '@wordcut/provider';
import { S3ObjectStorage } from '@wordcut/storage';
import { loadGatewayConfig, providerApiUrl, SCHEMA, SERVICE } from './config';
import { PublishingController } from './publishing/publishing.controller';
import { PublishingService } from './publishing/publishing';
import { gatewayDataSource } from './data-source';
import { JobsController } from './jobs.controller';
import { GATEWAY_CONFIG, LOGGER, MESSAGING, OBJECT_STORAGE } from './injection';
import { IngestCoordinator } from './videos/ingest';
import { ProviderSessionsController } from './videos/provider-sessions.controller';
import { TranscriptStore } from './transcripts/transcript-store';
import { VideoStore } from './videos/video-store';
import { VideosController } from './videos/videos.controller';
import { VideosService } from './videos/videos.service';
import { TranscriptsController } from './transcripts/transcripts.controller';
import { TranscriptsService } from './transcripts/transcripts.service';
import { EditService } from './edits/edits.service';
import { RetentionSweeper } from './videos/retention';
import { ClipStore } from './clips/clip-store';
import { RenderStore } from './edits/render-store';
import { VersionStore } from './edits/version-store';
import { EditsController } from './edits/edits.controller';
import { EditRequestService } from './edits/edit-requests.service';
import { TimelineExports } from './edits/timeline-export';
import { TranscriptReplacement } from './edits/transcript-replace';
import { ClipsController } from './clips/clips.controller';
import { ClipsService } from './clips/clips.service';
import { SilenceController } from './silence/silence.controller';
import { SilenceService } from './silence/silence.service';
import { SilenceAnalysisStore } from './silence/silence-store';
import { KeyMomentsController } from './key-moments/key-moments.controller';
import { KeyMomentsService } from './key-moments/key-moments.service';
import { KeyMomentStore } from './key-moments/key-moment-store';
import { KeyMomentsLlm } from './key-moments/key-moments-llm';
import { SessionAuth } from './session-auth';
import { AuthController } from './auth/auth.controller';
import { GatewayTokens } from './auth/gateway-tokens';
import { identityFromConfig } from './auth/from-config';
import { IdentityGuard, IdentityResolver } from './auth/identity.guard';
import { ActiveJobs, RateLimitStore } from './limits/limits';
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
  /** Every store and service, built in main, provided by its class; the rest by the tokens of ./injection. */
  static register(values: ValueProvider[]): DynamicModule {
    return {
      module: GatewayModule,
      controllers: [AuthController, PublishingController, EditsController, SilenceController, KeyMomentsController, ClipsController, JobsController, VideosController, ProviderSessionsController, TranscriptsController, OperatorController, OperatorFiguresController, VideoDeletionController],
      providers: [
        // every route needs an identity unless marked @Public
        { provide: APP_GUARD, useClass: IdentityGuard },
        IdentityResolver,
        // JSON bodies: read after the identity on the large-body routes
        jsonBodiesProvider,
        // oversized lists refused: reported to the operators' error log
        { provide: APP_INTERCEPTOR, useClass: RefusalLog },
        ...values,
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
      const edits = new EditService(ds, bus, storage, videos, transcripts, logger, activeJobs, renders, clips, new VersionStore(ds));
      const { auth, tokens } = identityFromConfig(config);
      const rateLimits = new RateLimitStore(ds);
      const videosService = new VideosService(ds, config, bus, storage, logger, videos, ingest, tokens, rateLimits, activeJobs);
      const transcriptsService = new TranscriptsService(videosService, transcripts);
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
      const silence = new SilenceService(config, bus, storage, logger, videos, transcripts, edits, silenceAnalyses);
      const editRequests = new EditRequestService(edits, transcripts, silence);
      const clipsService = new ClipsService(edits, transcripts, storage, clips, renders);
      const llm = config.KEY_MOMENTS_LLM_URL
        ? new KeyMomentsLlm({ url: config.KEY_MOMENTS_LLM_URL, model: config.KEY_MOMENTS_LLM_MODEL!, apiKey: config.KEY_MOMENTS_LLM_API_KEY, timeoutMs: config.KEY_MOMENTS_LLM_TIMEOUT_MS }, logger)
        : null;
      const keyMoments = new KeyMomentsService(bus, storage, logger, transcripts, edits, clipsService, keyMomentStore, llm, config.KEY_MOMENTS_WAIT_MS);
      const publishing = new PublishingService(config, bus, storage, logger, videos, transcripts, clips, renders, edits, auth, new HttpProviderClient({ apiUrl: providerApiUrl(config) }));
      return {
        module: GatewayModule.register([
          { provide: GATEWAY_CONFIG, useValue: config },
          { provide: MESSAGING, useValue: bus },
          { provide: OBJECT_STORAGE, useValue: storage },
          { provide: LOGGER, useValue: logger },
          { provide: GatewayTokens, useValue: tokens },
          { provide: RateLimitStore, useValue: rateLimits },
          { provide: VideosService, useValue: videosService },
          { provide: TranscriptsService, useValue: transcriptsService },
          { provide: SessionAuth, useValue: auth },
          { provide: EditService, useValue: edits },
          { provide: TimelineExports, useValue: new TimelineExports(edits, transcripts, clips, renders) },
          { provide: TranscriptReplacement, useValue: new TranscriptReplacement(ds, storage, edits, videos, transcripts, renders, logger) },
          { provide: EditRequestService, useValue: editRequests },
          { provide: ClipsService, useValue: clipsService },
          { provide: SilenceService, useValue: silence },
          { provide: KeyMomentsService, useValue: keyMoments },
          { provide: PublishingService, useValue: publishing },
          // operator routes (analytics dashboard): the guard reads their session cookie
          { provide: OperatorAccess, useValue: operator.access },
          { provide: OPERATOR_SERVICE, useValue: operator },
        ]),
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
