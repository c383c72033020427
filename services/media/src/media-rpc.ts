import {
  encodeEnergy,
  encodeWaveform,
  ENERGY_FRAMES_PER_SECOND,
  rpcMediaProbeRequestSchema,
  rpcMediaWaveformRequestSchema,
  Subjects,
  WAVEFORM_STORED_PEAKS_PER_SECOND,
  type RpcMediaProbeReply,
  type RpcMediaWaveformReply,
} from '@wordcut/contracts';
import { MediaProbeError, NoAudioError, primaryVideoStream, type IngestMediaTools } from '@wordcut/ffmpeg';
import type { Messaging } from '@wordcut/messaging';
import type { Logger } from '@wordcut/platform';
import type { ObjectStorage } from '@wordcut/storage';
import { IngestMessages, isHostileRefusal, mediaRefusal } from './ingest-failure';
import { presignFor } from './presign';

export interface MediaRpcOptions {
  probeTimeoutMs: number;
  waveformTimeoutMs: number;
}

/**
 * The media workers' request/reply side (core NATS, queue group): `rpc.media.probe` and
 * `rpc.media.waveform`. Bad media is an answer ({ok:false, code, message for people}), never an
 * exception; only infrastructure failures throw (the caller gets a RemoteError).
 */
export class MediaRpcHandlers {
  constructor(
    private readonly bus: Messaging,
    private readonly storage: ObjectStorage,
    private readonly tools: IngestMediaTools,
    private readonly logger: Logger,
    private readonly options: MediaRpcOptions,
  ) {}

  start(): void {
    this.bus.serve(Subjects.rpcMediaProbe, rpcMediaProbeRequestSchema, (req) => this.probe(req.objectKey));
    this.bus.serve(Subjects.rpcMediaWaveform, rpcMediaWaveformRequestSchema, (req) => this.waveform(req.objectKey, req.waveformKey, req.energyKey));
  }

  /**
   * ffprobe of an object in the bucket (untrusted: read as MP4/MOV only, its boxes checked first);
   * it must be a video (have a picture). Refusals: NOT_MP4, EXTERNAL_REFERENCE, UNSAFE_STRUCTURE, NOT_MEDIA, NO_VIDEO.
   */
  async probe(objectKey: string): Promise<RpcMediaProbeReply> {
    if (!(await this.storage.head(objectKey))) return { ok: false, code: 'NOT_FOUND', message: IngestMessages.VIDEO_NOT_FOUND };
    const url = await presignFor(this.storage, objectKey, this.options.probeTimeoutMs);
    try {
      const result = await this.tools.probe(url, { timeoutMs: this.options.probeTimeoutMs });
      if (!primaryVideoStream(result)) return { ok: false, code: 'NO_VIDEO', message: IngestMessages.NO_VIDEO };
      return { ok: true, result };
    } catch (err) {
      if (err instanceof MediaProbeError && err.code !== 'UNREADABLE') {
        const refusal = mediaRefusal(err);
        const entry = { objectKey, code: refusal.code, reason: err.reason };
        if (isHostileRefusal(refusal.code)) this.logger.warn({ ...entry, report: true }, 'probe: refused a crafted file');
        else this.logger.info(entry, 'probe: refused');
        return { ok: false, ...refusal };
      }
      throw err;
    }
  }

  /**
   * Computes the stored peaks of an object and writes them (encodeWaveform) at waveformKey, and with
   * energyKey the frame-energy series from the same decode (encodeEnergy).
   */
  async waveform(objectKey: string, waveformKey: string, energyKey?: string): Promise<RpcMediaWaveformReply> {
    if (!(await this.storage.head(objectKey))) return { ok: false, code: 'NOT_FOUND', message: IngestMessages.VIDEO_NOT_FOUND };
    const url = await presignFor(this.storage, objectKey, this.options.waveformTimeoutMs);
    try {
      const { durationSec, peaks, energy } = await this.tools.computePeaks(url, {
        peaksPerSecond: WAVEFORM_STORED_PEAKS_PER_SECOND,
        timeoutMs: this.options.waveformTimeoutMs,
      });
      await this.storage.upload(waveformKey, Buffer.from(encodeWaveform(durationSec, peaks)), { contentType: 'application/octet-stream' });
      if (energyKey) {
        const levels = { durationSec, framesPerSecond: ENERGY_FRAMES_PER_SECOND, levels: energy };
        await this.storage.upload(energyKey, Buffer.from(encodeEnergy(levels)), { contentType: 'application/octet-stream' });
      }
      return { ok: true, durationSec, peakCount: peaks.length };
    } catch (err) {
      if (err instanceof NoAudioError) return { ok: false, code: err.code, message: err.message };
      if (err instanceof MediaProbeError && err.code !== 'UNREADABLE') return { ok: false, ...mediaRefusal(err) };
      throw err;
    }
  }
}
