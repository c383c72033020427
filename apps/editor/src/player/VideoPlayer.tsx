import { useEffect, useRef, useState } from 'react';
import {
  MediaCaptionsButton,
  MediaControlBar,
  MediaController,
  MediaFullscreenButton,
  MediaLoadingIndicator,
  MediaMuteButton,
  MediaPlayButton,
  MediaPlaybackRateButton,
  MediaSeekBackwardButton,
  MediaSeekForwardButton,
  MediaTimeDisplay,
  MediaTimeRange,
  MediaVolumeRange,
} from 'media-chrome/react';
import type { Video } from '@wordcut/contracts';
import { captionsTrackUrl, isVideoPending, streamUrl } from '../shared/api';
import { usePlaybackStore } from '../shared/playback';
import { PreviewController } from './PreviewController';
import { ReframeOverlay } from './ReframeOverlay';
import { heldStreamSource } from './source';
import type { HeldSource } from './source';
import { useWorkspaceStore } from '../shared/workspace';

/** The sources the player tries in order: the processed stream, then the fallback when one is given. */
export function playerSources(primary: string | undefined, fallback?: string): string[] {
  if (!primary) return [];
  return fallback && fallback !== primary ? [primary, fallback] : [primary];
}

/**
 * The video player: media-chrome's controls around the page's own <video> on the processed stream,
 * switching to the fallback source when the stream fails. Time goes to the playback store
 * (throttled there to 100 ms); the preview controller applies the preview modes to the element once
 * per frame; neither re-renders React.
 */
export function VideoPlayer({ video, title, fallbackSrc }: { video: Video; title: string; fallbackSrc?: string }) {
  const ref = useRef<HTMLVideoElement>(null);
  const store = usePlaybackStore();
  const workspace = useWorkspaceStore();
  // while the video is still being ingested its media may not be readable yet: load it once it is
  const held = useRef<HeldSource | null>(null);
  held.current = heldStreamSource(held.current, video.mediaVersion, isVideoPending(video) ? undefined : streamUrl(video));
  const sources = playerSources(held.current.url, fallbackSrc);
  const sourcesKey = sources.join('\n');
  const [attempt, setAttempt] = useState<{ key: string; index: number }>({ key: sourcesKey, index: 0 });
  const index = attempt.key === sourcesKey ? attempt.index : 0;
  const src = sources[index];
  const failed = attempt.key === sourcesKey && attempt.index >= sources.length && sources.length > 0;
  // a version with burned captions shows them in the picture: the player's own track would double them
  const captions = video.status === 'completed' && !video.burnedCaptions ? captionsTrackUrl(video) : null;

  useEffect(() => {
    if (video.duration != null) store.setDuration(video.duration);
  }, [store, video.duration]);

  // the preview controller lives as long as the page's workspace
  const [controller] = useState(() => new PreviewController(workspace));
  useEffect(() => () => controller.dispose(), [controller]);

  useEffect(() => {
    const media = ref.current;
    if (!media) return;
    store.attach(media);
    controller.attach(media);
    let frame = 0;
    const tick = () => {
      store.reportTime(media.currentTime);
      frame = requestAnimationFrame(tick);
    };
    const stopTicking = () => {
      cancelAnimationFrame(frame);
      frame = 0;
    };
    const onPlay = () => {
      store.setPlaying(true);
      if (!frame) frame = requestAnimationFrame(tick);
    };
    const onStop = () => {
      stopTicking();
      store.setPlaying(false);
      store.reportTime(media.currentTime, true);
    };
    const onTime = () => store.reportTime(media.currentTime);
    const onSeeked = () => store.reportTime(media.currentTime, true);
    const onDuration = () => {
      if (Number.isFinite(media.duration)) store.setDuration(media.duration);
    };
    const events: Array<[keyof HTMLMediaElementEventMap, () => void]> = [
      ['play', onPlay],
      ['pause', onStop],
      ['ended', onStop],
      ['timeupdate', onTime],
      ['seeked', onSeeked],
      ['loadedmetadata', onDuration],
      ['durationchange', onDuration],
    ];
    for (const [name, handler] of events) media.addEventListener(name, handler);
    return () => {
      stopTicking();
      for (const [name, handler] of events) media.removeEventListener(name, handler);
      controller.attach(null);
      store.attach(null);
    };
  }, [store, controller]);

  // media-chrome's captions button is a two-state toggle with aria-checked: a switch, not a plain button
  useEffect(() => {
    const button = ref.current?.closest('media-controller')?.querySelector('media-captions-button');
    button?.setAttribute('role', 'switch');
  }, [captions]);

  const onError = () => {
    // the next source, or past the end: failed
    setAttempt({ key: sourcesKey, index: index + 1 });
  };

  return (
    <div className="wc-player" data-testid="player">
      <MediaController className="wc-player__controller" aria-label={`Video player: ${title}`}>
        <video
          ref={ref}
          slot="media"
          className="wc-player__video"
          src={src}
          playsInline
          preload="metadata"
          aria-label={`Video: ${title}`}
          data-testid="video-player"
          data-source-index={index}
          onError={onError}
        >
          {captions ? <track key={captions} kind="captions" src={captions} srcLang={video.languageCode.split('-')[0] || 'en'} label="Captions" data-testid="captions-track" /> : null}
        </video>
        <MediaLoadingIndicator slot="centered-chrome" noAutohide />
        <MediaControlBar className="wc-player__controls">
          <MediaPlayButton />
          <MediaSeekBackwardButton seekOffset={5} />
          <MediaSeekForwardButton seekOffset={5} />
          <MediaTimeRange />
          <MediaTimeDisplay showDuration />
          <MediaMuteButton />
          <MediaVolumeRange />
          {captions ? <MediaCaptionsButton /> : null}
          <MediaPlaybackRateButton rates={[0.5, 0.75, 1, 1.25, 1.5, 2]} />
          <MediaFullscreenButton />
        </MediaControlBar>
      </MediaController>
      <ReframeOverlay video={video} />
      {failed ? (
        <p className="wc-error-text" role="alert" data-testid="video-load-error">
          The video could not be loaded. Reload the page to try again.
        </p>
      ) : null}
    </div>
  );
}
