import { useEffect, useRef, useState } from 'react';
import type { KeyMoment } from '@wordcut/contracts';
import { toast } from '@wordcut/ui';
import { ANALYSIS_FAILED, ANALYSIS_FAILED_FALLBACK, NO_MOMENTS_TEXT, NO_MOMENTS_TITLE, failureMessage, useFindMoments, useMoments, useVideo } from './api';
import { EmptyState } from './EmptyState';
import { MomentList } from './MomentList';
import { Preview } from './Preview';
import { selectionAfterLoad } from './selection';

/** Closing waits this long after a successful export, so its toast is seen over the editor. */
export const CLOSE_AFTER_EXPORT_MS = 600;
const NO_MOMENTS: KeyMoment[] = [];

/** The moments of one video: the cards on the left (40 %), the preview of the selected one on the right (60 %). */
export function KeyClipsWorkspace({ videoId, onDone }: { videoId: string; onDone: () => void }) {
  const moments = useMoments(videoId);
  const video = useVideo(videoId);
  const [progress, setProgress] = useState<string | null>(null);
  const find = useFindMoments(videoId, (percent, message) => setProgress(`${message} (${Math.round(percent)} %)`));
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [nothingFound, setNothingFound] = useState(false);
  const closeTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const list = moments.data?.moments ?? NO_MOMENTS;

  // the first moment is selected when moments load (and whenever the selected one is gone)
  useEffect(() => {
    setSelectedId((current) => selectionAfterLoad(current, list));
  }, [list]);

  useEffect(() => () => {
    if (closeTimer.current) clearTimeout(closeTimer.current);
  }, []);

  const analyse = () => {
    setNothingFound(false);
    setProgress(null);
    find.mutate(undefined, {
      onSuccess: (answer) => {
        if (answer.moments.length === 0) {
          setNothingFound(true);
          toast({ title: NO_MOMENTS_TITLE, description: NO_MOMENTS_TEXT, variant: 'destructive' });
        }
      },
      onError: (error) => toast({ title: ANALYSIS_FAILED, description: failureMessage(error, ANALYSIS_FAILED_FALLBACK), variant: 'destructive' }),
    });
  };

  const exported = () => {
    closeTimer.current = setTimeout(onDone, CLOSE_AFTER_EXPORT_MS);
  };

  if (moments.isPending) {
    return (
      <p className="wc-muted wc-kc__loading" role="status">
        Loading key moments…
      </p>
    );
  }
  if (moments.isError) {
    return (
      <div className="wc-empty" role="alert">
        <h3 className="wc-empty__title">{ANALYSIS_FAILED}</h3>
        <p className="wc-muted">{failureMessage(moments.error, 'Failed to load key moments')}</p>
        <button type="button" className="wc-button" onClick={() => void moments.refetch()}>
          Retry
        </button>
      </div>
    );
  }
  if (list.length === 0) {
    return <EmptyState analysing={find.isPending} progress={find.isPending ? progress : null} nothingFound={nothingFound} onFind={analyse} error={find.isError ? failureMessage(find.error, ANALYSIS_FAILED_FALLBACK) : null} />;
  }
  const selected = list.find((m) => m.id === selectedId) ?? list[0]!;
  return (
    <div className="wc-kc__workspace">
      <MomentList moments={list} selectedId={selected.id} onSelect={setSelectedId} />
      <Preview moment={selected} video={video.data ?? null} videoId={videoId} onExported={exported} />
    </div>
  );
}
