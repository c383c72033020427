import { startTracing } from '@wordcut/platform';
startTracing('media');

import { Module } from '@nestjs/common';
import { DiskCache, FfmpegMediaTools } from '@wordcut/ffmpeg';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Messaging, relayErrorLogs } from '@wordcut/messaging';
import { natsSettings, runMain, runService, s3Settings } from '@wordcut/platform';
import { S3ObjectStorage } from '@wordcut/storage';
import { loadMediaConfig, SERVICE } from './config';
import { IngestWorker } from './ingest.worker';
import { KeyMomentsWorker } from './keymoments.worker';
import { SafeMediaImporter } from './media-importer';
import { MediaRpcHandlers } from './media-rpc';
import { ProbeWorker } from './probe.worker';
import { RenderWorker } from './render.worker';
import { transcriptionFromConfig } from './transcription/from-config';

@Module({})
class MediaModule {}

export async function main() {
  return runService({
    name: SERVICE,
    loadConfig: () => loadMediaConfig(),
    create: async ({ config, logger, metrics, errorLog }) => {
      const storage = new S3ObjectStorage(s3Settings(config));
      await storage.ensureBucket();
      const bus = await Messaging.connect({ ...natsSettings(config), name: `${SERVICE}-${config.WORKER_ID}`, logger, metrics });
      const tools = new FfmpegMediaTools({ ffmpegPath: config.FFMPEG_PATH, ffprobePath: config.FFPROBE_PATH });
      const worker = new ProbeWorker(bus, storage, tools, logger, {
        workerId: config.WORKER_ID,
        concurrency: config.MEDIA_CONCURRENCY,
        ackWaitMs: config.MEDIA_ACK_WAIT_MS,
        maxDeliver: config.MEDIA_MAX_DELIVER,
        probeTimeoutMs: config.PROBE_TIMEOUT_MS,
        faultDelayMs: config.MEDIA_FAULT_DELAY_MS,
      });
      const importer = new SafeMediaImporter(storage, {
        allowedHosts: config.PROVIDER_MEDIA_ALLOWED_HOSTS,
        trustedPrivateHosts: config.PROVIDER_MEDIA_TRUSTED_PRIVATE_HOSTS,
        maxBytes: config.IMPORT_MAX_BYTES,
        timeoutMs: config.IMPORT_IDLE_TIMEOUT_MS,
      });
      const ingest = new IngestWorker(bus, storage, tools, importer, logger, {
        workerId: config.WORKER_ID,
        concurrency: config.INGEST_CONCURRENCY,
        ackWaitMs: config.MEDIA_ACK_WAIT_MS,
        maxDeliver: config.MEDIA_MAX_DELIVER,
        probeTimeoutMs: config.PROBE_TIMEOUT_MS,
        transcodeTimeoutMs: config.TRANSCODE_TIMEOUT_MS,
        waveformTimeoutMs: config.WAVEFORM_TIMEOUT_MS,
        onVideoFound: (key) => render.warm(key),
        ...transcriptionFromConfig(config),
      });
      const cache =
        config.MEDIA_CACHE_MAX_GB > 0
          ? new DiskCache({
              dir: config.MEDIA_CACHE_DIR || join(tmpdir(), 'wordcut-media-cache'),
              maxBytes: config.MEDIA_CACHE_MAX_GB * 1024 ** 3,
              maxAgeMs: config.MEDIA_CACHE_MAX_AGE_HOURS * 3600_000,
            })
          : null;
      void cache?.check().then((reason) => reason && logger.warn({ reason, report: true }, 'render cache off'));
      const render = new RenderWorker(bus, storage, logger, {
        cache,
        workerId: config.WORKER_ID,
        concurrency: config.RENDER_CONCURRENCY,
        ackWaitMs: config.MEDIA_ACK_WAIT_MS,
        maxDeliver: config.MEDIA_MAX_DELIVER,
        renderTimeoutMs: config.RENDER_TIMEOUT_MS,
        faultDelayMs: config.MEDIA_FAULT_DELAY_MS,
      });
      const keyMoments = new KeyMomentsWorker(bus, storage, tools, logger, {
        workerId: config.WORKER_ID,
        concurrency: config.KEYMOMENTS_CONCURRENCY,
        ackWaitMs: config.MEDIA_ACK_WAIT_MS,
        maxDeliver: config.MEDIA_MAX_DELIVER,
        mediaTimeoutMs: config.WAVEFORM_TIMEOUT_MS,
        faultDelayMs: config.MEDIA_FAULT_DELAY_MS,
      });
      const rpc = new MediaRpcHandlers(bus, storage, tools, logger, {
        probeTimeoutMs: config.PROBE_TIMEOUT_MS,
        waveformTimeoutMs: config.WAVEFORM_TIMEOUT_MS,
      });
      return {
        module: MediaModule,
        healthChecks: [
          { name: 'nats', check: () => bus.ping() },
          { name: 's3', check: () => storage.ping() },
        ],
        start: async () => {
          await relayErrorLogs(bus, errorLog, SERVICE);
          // entries left by an earlier run past their age or over the budget
          void cache?.sweep();
          rpc.start();
          await worker.start();
          await ingest.start();
          await render.start();
          await keyMoments.start();
        },
        close: () => bus.close(),
      };
    },
  });
}

if (require.main === module) runMain(SERVICE, main);
