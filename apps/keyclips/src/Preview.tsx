import { useEffect, useRef, useState } from 'react';
import type { KeyMoment, Video } from '@wordcut/contracts';
import { toast } from '@wordcut/ui';
import { EXPORT_FAILED, EXPORT_FAILED_FALLBACK, failureMessage, previewSource, useExportMoment } from './api';
import { clock } from './format';
import { INITIAL_FRAMING, exportBody, exportLabel, geometryOf, type Framing, type SourceSize } from './framing';
import { FramingControls } from './FramingControls';
import { PreviewStage } from './PreviewStage';
import { cueMoment, detectSourceSize, holdInMoment, togglePlay } from './playback';

/**
 * The selected moment's preview: its title and time range, the video framed as the clip will be,
 * the framing controls and the export button. Playback stays inside the moment: selecting it pauses
 * and seeks to its start; at its end playback pauses and goes back to the start.
 */
export function Preview({ moment, video, videoId, onExported }: { moment: KeyMoment; video: Video | null; videoId: string; onExported: () => void }) {
  const mediaRef = useRef<HTMLVideoElement>(null);
  const [framing, setFraming] = useState<Framing>(INITIAL_FRAMING);
  const [size, setSize] = useState<SourceSize | null>(null);
  const [playing, setPlaying] = useState(false);
  const exportMoment = useExportMoment(videoId);
  const geometry = geometryOf(framing, size);
  const fallbackWidth = video?.width ?? null;
  const fallbackHeight = video?.height ?? null;

  const hasVideo = video !== null;
  const { startTime, endTime } = moment;

  // selecting a moment pauses and seeks to its start (once the media can seek)
  useEffect(() => {
    const media = mediaRef.current;
    if (!media) return;
    const cue = () => cueMoment(media, { startTime, endTime });
    if (media.readyState >= 1) cue();
    else media.addEventListener('loadedmetadata', cue, { once: true });
    return () => media.removeEventListener('loadedmetadata', cue);
  }, [hasVideo, startTime, endTime]);

  // the picture's size, for the geometry: the element's, retried; else the server's
  useEffect(() => {
    const media = mediaRef.current;
    if (!media) return;
    const fallback = fallbackWidth && fallbackHeight ? { width: fallbackWidth, height: fallbackHeight } : null;
    return detectSourceSize(media, fallback, setSize);
  }, [hasVideo, fallbackWidth, fallbackHeight]);

  const toggle = () => {
    if (mediaRef.current) togglePlay(mediaRef.current, moment);
  };

  const runExport = () => {
    exportMoment.mutate(
      { momentId: moment.id, body: exportBody(framing, geometry) },
      {
        onSuccess: (clip) => {
          toast({ title: 'Clip created', description: `${clip.name} is being processed...` });
          onExported();
        },
        onError: (error) => toast({ title: EXPORT_FAILED, description: failureMessage(error, EXPORT_FAILED_FALLBACK), variant: 'destructive' }),
      },
    );
  };

  return (
    <section className="wc-kc__preview" aria-labelledby="wc-kc-preview-title" data-testid="keyclips-preview">
      <header className="wc-kc__preview-header">
        <h3 id="wc-kc-preview-title" className="wc-kc__preview-title">
          {moment.title}
        </h3>
        <p className="wc-muted wc-kc__range" data-testid="keyclips-range">
          {clock(moment.startTime)} – {clock(moment.endTime)}
        </p>
      </header>
      <PreviewStage framing={framing} size={size} geometry={geometry} playing={playing} onFraming={setFraming} onToggle={toggle}>
        {video ? (
          <video
            ref={mediaRef}
            className="wc-kc-stage__video"
            src={previewSource(video)}
            preload="auto"
            playsInline
            data-testid="keyclips-video"
            onTimeUpdate={(event) => holdInMoment(event.currentTarget, moment)}
            onPlay={() => setPlaying(true)}
            onPause={() => setPlaying(false)}
          />
        ) : null}
      </PreviewStage>
      <div className="wc-kc__playbar">
        <button type="button" className="wc-button wc-button--small" onClick={toggle} disabled={!video} data-testid="keyclips-play">
          {playing ? 'Pause' : 'Play'}
        </button>
      </div>
      <FramingControls framing={framing} size={size} geometry={geometry} onFraming={setFraming} />
      <button
        type="button"
        className="wc-button wc-button--primary wc-button--block wc-kc__export"
        onClick={runExport}
        disabled={exportMoment.isPending || exportMoment.isSuccess}
        data-testid="keyclips-export"
      >
        {exportMoment.isPending ? 'Exporting…' : exportLabel(framing, geometry)}
      </button>
    </section>
  );
}
