import {
  decodeEnergy,
  ErrorCode,
  rpcMediaWaveformReplySchema,
  StorageKeys,
  Subjects,
  type DetectSilenceRequest,
  type DetectSilenceResponse,
  type EnergySeries,
} from '@wordcut/contracts';
import { outputDuration, outputMutes } from '@wordcut/edit-list';
import { AppError, type Logger } from '@wordcut/platform';
import type { Messaging } from '@wordcut/messaging';
import { readObjectBytes, type ObjectStorage } from '@wordcut/storage';
import { analysePauses, clampWords, findSilentSpans, padRemovalRanges, type TimeSpan } from '@wordcut/transcript';
import { currentEditList, type EditService, type EditVideoRow } from '../edits/edits.service';
import type { SilenceAnalysisStore } from './silence-store';
import type { GatewayConfig } from '../config';
import type { TranscriptStore } from '../transcripts/transcript-store';
import type { VideoStore } from '../videos/video-store';

/** Bumped whenever the pause rules change what they answer: stored analyses of older rules are not served. */
export const PAUSE_RULES_VERSION = 1;

/**
 * Pause detection and the removal ranges (docs/SILENCE.md). The media workers store a frame-energy
 * series with every waveform; this reads it (asking a worker to build it for media that has
 * none), runs the pure rules of @wordcut/transcript on it and the transcript, and stores the
 * answer per video version, transcript version and parameters.
 */
export class SilenceService {
  constructor(
    private readonly config: Pick<GatewayConfig, 'SILENCE_PADDING_MS' | 'WAVEFORM_BUILD_TIMEOUT_MS'>,
    private readonly bus: Messaging,
    private readonly storage: ObjectStorage,
    private readonly logger: Logger,
    private readonly videos: VideoStore,
    private readonly transcripts: TranscriptStore,
    private readonly edits: EditService,
    private readonly store: SilenceAnalysisStore,
  ) {}

  /** Seconds of silence kept next to speech on each side of a removed pause. */
  get padding(): number {
    return this.config.SILENCE_PADDING_MS / 1000;
  }

  /** The pauses of the current version of one of `ownerId`'s videos (stored, or analysed now and stored). */
  async detect(videoId: string, ownerId: string, req: DetectSilenceRequest): Promise<DetectSilenceResponse> {
    const row = await this.edits.editableVideo(videoId, ownerId);
    const params = `rules=${PAUSE_RULES_VERSION};min=${req.minPauseDuration};ctx=${req.contextWords};auto=${req.useAutoThresholds ? 1 : 0};pad=${this.padding}`;
    const stored = await this.store.current(row.id, ownerId, params);
    if (stored) return stored;
    const transcript = await this.transcripts.getByVideo(row.id);
    if (!transcript) throw new AppError(409, ErrorCode.Conflict, 'The video has no transcript yet.');
    const editList = currentEditList(row);
    const energy = row.has_audio === false ? null : await this.energyOf(row);
    // pauses lie on the video's timeline (its audio may run a few milliseconds longer or shorter)
    const duration = outputDuration(editList);
    const fillers = new Set(transcript.fillerWords);
    const words = clampWords(transcript.words, duration).map((w, i) => ({ text: w.text, start: w.start, end: w.end, filler: fillers.has(i) }));
    const levels = energy ? findSilentSpans({ ...energy, durationSec: duration }) : null;
    const analysis = analysePauses(
      {
        words,
        silences: levels ? levels.spans : null,
        duration,
        ...(levels ? { noiseFloorDb: levels.noiseFloorDb } : {}),
        mutedRanges: outputMutes(editList).map((m) => ({ start: m.start, end: m.end })),
      },
      { ...req, padding: this.padding },
    );
    await this.store.put(row.id, row.edit_version, transcript.version, params, analysis);
    this.logger.info(
      { videoId: row.id, editVersion: row.edit_version, pauses: analysis.summary.total, recommended: analysis.summary.recommended, thresholdDb: levels?.thresholdDb },
      'pauses analysed',
    );
    return analysis;
  }

  /** The ranges process-silence removes for the requested ones: padded next to speech (padRemovalRanges). */
  removalRanges(row: EditVideoRow, ranges: readonly TimeSpan[]): TimeSpan[] {
    return padRemovalRanges(ranges, { padding: this.padding, duration: outputDuration(currentEditList(row)) });
  }

  /**
   * The stored frame-energy series of the video's current media; media from before energy series
   * existed gets one (with its peaks) from a media worker first. null: the media has no audio.
   */
  private async energyOf(row: EditVideoRow): Promise<EnergySeries | null> {
    const key = StorageKeys.energy(row.id, row.media_version);
    let bytes = await this.readObject(key);
    if (!bytes) {
      const mediaKey = row.playback_key ?? row.original_key;
      if (!mediaKey) throw new AppError(409, ErrorCode.Conflict, 'The video has no media yet.');
      const waveformKey = row.waveform_key ?? StorageKeys.waveform(row.id, row.media_version);
      const reply = await this.bus
        .request(Subjects.rpcMediaWaveform, { objectKey: mediaKey, waveformKey, energyKey: key }, rpcMediaWaveformReplySchema, this.config.WAVEFORM_BUILD_TIMEOUT_MS)
        .catch((err: unknown) => {
          this.logger.error({ err, videoId: row.id }, 'energy build request failed');
          throw new AppError(503, ErrorCode.ServiceUnavailable, 'Silence detection is unavailable right now. Please try again.');
        });
      if (!reply.ok) {
        if (reply.code === 'NO_AUDIO') return null;
        throw new AppError(422, reply.code, reply.message);
      }
      await this.videos.setWaveformKey(row.id, row.media_version, waveformKey);
      bytes = await this.readObject(key);
      if (!bytes) throw new AppError(503, ErrorCode.ServiceUnavailable, 'Silence detection is unavailable right now. Please try again.');
    }
    return decodeEnergy(bytes);
  }

  private readObject(key: string): Promise<Uint8Array | null> {
    return readObjectBytes(this.storage, key);
  }
}
