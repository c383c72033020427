import { commonConfig, loadConfig, natsConfig, s3Config } from '@wordcut/platform';
import { hostname } from 'node:os';
import { z } from 'zod';

export const SERVICE = 'media';

/** A comma-separated list (blanks dropped), e.g. `media.example.com,*.cdn.example.com`. */
const commaList = z
  .string()
  .default('')
  .transform((v) => v.split(',').map((s) => s.trim()).filter(Boolean));

export const mediaConfigSchema = z.object({
  ...commonConfig,
  PORT: commonConfig.PORT.default(3101),
  ...natsConfig,
  ...s3Config,
  WORKER_ID: z.string().default(`${hostname()}-${process.pid}`),
  /** jobs one worker process runs at once; scale further with replicas */
  MEDIA_CONCURRENCY: z.coerce.number().int().min(1).max(16).default(1),
  /** redelivery delay for a worker that died; live workers heartbeat well within it */
  MEDIA_ACK_WAIT_MS: z.coerce.number().int().min(1000).default(30000),
  MEDIA_MAX_DELIVER: z.coerce.number().int().min(1).max(10).default(3),
  PROBE_TIMEOUT_MS: z.coerce.number().int().min(1000).default(60000),
  /** ingest jobs (import, probe, transcript, proxy, waveform) one process runs at once */
  INGEST_CONCURRENCY: z.coerce.number().int().min(1).max(8).default(1),
  /** limit of one ffmpeg transcode to a browser proxy */
  /** render jobs one worker process runs at once (each uses every core for its pieces) */
  RENDER_CONCURRENCY: z.coerce.number().int().min(1).max(8).default(1),
  /** key-moment analyses one worker process runs at once (mostly CPU for under a second, plus two light ffmpeg reads) */
  KEYMOMENTS_CONCURRENCY: z.coerce.number().int().min(1).max(8).default(2),
  /** limit for each ffmpeg process of a render */
  RENDER_TIMEOUT_MS: z.coerce.number().int().min(1000).default(2 * 3600_000),
  TRANSCODE_TIMEOUT_MS: z.coerce.number().int().min(1000).default(2 * 3600_000),
  /** limit of one waveform (peaks) computation */
  WAVEFORM_TIMEOUT_MS: z.coerce.number().int().min(1000).default(10 * 60_000),
  /** hosts provider media may be imported from: 'host', 'host:port' or '*.example.com' (empty: none) */
  PROVIDER_MEDIA_ALLOWED_HOSTS: commaList,
  /** dev/test only: allowed hosts that may resolve to loopback/private addresses */
  PROVIDER_MEDIA_TRUSTED_PRIVATE_HOSTS: commaList,
  /** largest provider video imported, bytes (default 10 GB) */
  IMPORT_MAX_BYTES: z.coerce.number().int().min(1).default(10 * 1024 ** 3),
  /** idle timeout of a provider download (connect, headers, between chunks) */
  IMPORT_IDLE_TIMEOUT_MS: z.coerce.number().int().min(1000).default(30_000),
  /**
   * Local cache of originals and rendered pieces, shared by the worker processes of one machine
   * (a render reuses what earlier renders of the same original made). Default: under the temp dir.
   */
  MEDIA_CACHE_DIR: z.string().default(''),
  /** bytes the cache may hold, in GiB (0 turns it off) */
  MEDIA_CACHE_MAX_GB: z.coerce.number().min(0).default(20),
  /** entries unused this long are removed */
  MEDIA_CACHE_MAX_AGE_HOURS: z.coerce.number().min(0.01).default(48),
  FFMPEG_PATH: z.string().default('ffmpeg'),
  FFPROBE_PATH: z.string().default('ffprobe'),
  /**
   * Fault injection for resilience tests only: hold each job this long after it starts.
   * 0 (the default) in every real deployment.
   */
  MEDIA_FAULT_DELAY_MS: z.coerce.number().int().min(0).default(0),
  /**
   * An OpenAI-compatible speech-to-text API base (e.g. https://api.openai.com/v1); set, a video
   * without captions is transcribed (docs/TRANSCRIPTION.md). The gateway reads the same variable.
   */
  TRANSCRIPTION_URL: z.preprocess((v) => (v === '' ? undefined : v), z.string().url().optional()),
  TRANSCRIPTION_API_KEY: z.preprocess((v) => (v === '' ? undefined : v), z.string().optional()),
  TRANSCRIPTION_MODEL: z.string().min(1).default('whisper-1'),
  /** what the audio is sent as: mp3 (small), or wav/flac for servers that read nothing else */
  TRANSCRIPTION_AUDIO_FORMAT: z.enum(['mp3', 'wav', 'flac']).default('mp3'),
  /** longest stretch of audio in one request, and the overlap between neighbouring stretches */
  TRANSCRIPTION_CHUNK_SECONDS: z.coerce.number().int().min(10).max(3600).default(600),
  TRANSCRIPTION_OVERLAP_SECONDS: z.coerce.number().min(0).max(30).default(5),
  /** the endpoint's file limit (OpenAI and Groq: 25 MB) */
  TRANSCRIPTION_MAX_FILE_MB: z.coerce.number().min(1).max(1024).default(24),
  /** limit of one request */
  TRANSCRIPTION_TIMEOUT_MS: z.coerce.number().int().min(1000).default(10 * 60_000),
});
export type MediaConfig = z.infer<typeof mediaConfigSchema>;

export const loadMediaConfig = (env: NodeJS.ProcessEnv = process.env): MediaConfig => loadConfig(SERVICE, mediaConfigSchema, env);
