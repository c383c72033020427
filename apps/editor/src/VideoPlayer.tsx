import { useEffect, useRef, useState } from 'react';
import type { Video } from '@wordcut/contracts';
import { isVideoPending, streamUrl } from './api';
import { usePlaybackStore } from './playback';

/**
 * A plain HTML5 player on the processed stream. It reports its time to the playback store:
 * while playing, once per animation frame (the store keeps one update per 100 ms), and at
 * once on seek, pause and end. The store's seek() moves it.
 */
export function VideoPlayer({ video, title }: { video: Video; title: string }) {
  const ref = useRef<HTMLVideoElement>(null);
  const store = usePlaybackStore();
  // while the video is still being ingested its media may not be readable yet: load it once it is
  const src = isVideoPending(video) ? undefined : streamUrl(video);
  // the source that failed to load; a new source (the video finished processing, a new render) clears it
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  const failed = src !== undefined && failedSrc === src;

  useEffect(() => {
    if (video.duration != null) store.setDuration(video.duration);
  }, [store, video.duration]);

  useEffect(() => {
    const media = ref.current;
    if (!media) return;
    store.attach(media);
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
    const onError = () => setFailedSrc(media.getAttribute('src'));
    const onLoaded = () => setFailedSrc(null);
    const events: Array<[keyof HTMLMediaElementEventMap, () => void]> = [
      ['play', onPlay],
      ['pause', onStop],
      ['ended', onStop],
      ['timeupdate', onTime],
      ['seeked', onSeeked],
      ['loadedmetadata', onDuration],
      ['durationchange', onDuration],
      ['error', onError],
      ['loadeddata', onLoaded],
    ];
    for (const [name, handler] of events) media.addEventListener(name, handler);
    return () => {
      stopTicking();
      for (const [name, handler] of events) media.removeEventListener(name, handler);
      store.attach(null);
    };
  }, [store]);

  return (
    <div className="wc-player">
      <video
        ref={ref}
        className="wc-player__video"
        src={src}
        controls
        playsInline
        preload="metadata"
        aria-label={`Video: ${title}`}
        data-testid="video-player"
      />
      {failed ? (
        <p className="wc-error-text" role="alert" data-testid="video-load-error">
          The video could not be loaded. Reload the page to try again.
        </p>
      ) : null}
    </div>
  );
}
