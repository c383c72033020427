import { useEffect, useId, useRef } from 'react';

/** The KeyClips Guide: what it is, the three steps, the five categories, the export modes, upscaling and tips. Escape closes it (not the panel). */
export function GuideModal({ onClose }: { onClose: () => void }) {
  const titleId = useId();
  const dialogRef = useRef<HTMLDivElement>(null);
  const closeRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    closeRef.current?.focus();
    return () => {
      if (opener?.isConnected) opener.focus();
    };
  }, []);

  const onKeyDown = (event: React.KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      onClose();
    }
  };

  return (
    <div className="wc-kc-guide-layer">
      <div ref={dialogRef} className="wc-kc-guide" role="dialog" aria-modal="true" aria-labelledby={titleId} onKeyDown={onKeyDown} data-testid="keyclips-guide">
        <header className="wc-kc-guide__header">
          <h2 id={titleId}>KeyClips Guide</h2>
          <button ref={closeRef} type="button" className="wc-button wc-button--icon" onClick={onClose} aria-label="Close guide">
            <span aria-hidden="true">×</span>
          </button>
        </header>
        <section>
          <h3>What is KeyClips?</h3>
          <p>
            KeyClips reads your video&apos;s transcript and the speaker&apos;s energy and suggests 5 to 10 moments worth sharing, each 15 to 60
            seconds of whole sentences, with an engagement score and the reasons it stands out. Export any moment as a clip in the aspect ratio
            your channel needs.
          </p>
        </section>
        <section>
          <h3>Quick start</h3>
          <ol>
            <li>
              <strong>Find moments:</strong> choose Find Key Moments. The first moment is selected for you.
            </li>
            <li>
              <strong>Preview and frame:</strong> play the moment (it loops inside its own start and end), pick an aspect ratio, zoom and drag
              the picture to frame the speaker.
            </li>
            <li>
              <strong>Export:</strong> the clip is rendered and appears in Generated Clips, ready to download or publish.
            </li>
          </ol>
        </section>
        <section>
          <h3>The five categories</h3>
          <dl className="wc-kc-guide__categories">
            <dt>High-impact</dt>
            <dd>Key points, striking figures and strongly felt, energetic delivery.</dd>
            <dt>Actionable</dt>
            <dd>Steps and instructions the audience can follow, from the sentence that announces them to the last step.</dd>
            <dt>Entertaining</dt>
            <dd>Questions answered, humour, exclamations and swings of mood.</dd>
            <dt>Quotable</dt>
            <dd>Lines that stand on their own: contrasts, parallel clauses, and the line a speaker introduces as the thing to remember.</dd>
            <dt>Visual</dt>
            <dd>Moments where the speaker points at what is on screen.</dd>
          </dl>
        </section>
        <section>
          <h3>Engagement and “Why this moment?”</h3>
          <p>
            The engagement percentage is a score from our own signals in the moment: announced lists and steps, lines that stand on their own,
            key points, questions answered, and the speaker&apos;s energy. It ranks the moments of this video against each other; it is not a
            prediction of views. “Why this moment?” names the evidence in the talk&apos;s own words.
          </p>
        </section>
        <section>
          <h3>Pass-through or cropping</h3>
          <p>
            <strong>Pass-through:</strong> with Original, or a ratio the video already has (within 0.01), at zoom 1 without panning, the whole
            frame is kept: Original at its native size, a matching ratio scaled to the export size.
          </p>
          <p>
            <strong>Cropping:</strong> any other ratio, or any zoom, keeps a window of the picture. Drag the picture (or use the arrow keys) to
            choose what the window shows; it always stays on the picture, so the frame is never empty. The export shows exactly what the
            preview shows.
          </p>
        </section>
        <section>
          <h3>Upscaling</h3>
          <p>
            Export sizes are fixed (9:16 is 1080x1920, 16:9 is 1920x1080, 1:1 is 1080x1080, 4:5 is 1080x1350, 21:9 is 2560x1080). When the
            window is smaller than that, the clip is upscaled: the button says (Upscaled) above 1.05x, and from 2x a heavy-upscaling warning
            says the picture may look soft.
          </p>
        </section>
        <section>
          <h3>Tips and special cases</h3>
          <ul>
            <li>A short click on the preview plays or pauses; a drag of 5 pixels or more pans.</li>
            <li>Zoom runs from 1x to 2.5x in steps of 0.1; Reset centres the picture at 1x.</li>
            <li>After you edit the video, find the moments again: they belong to the version they were found on.</li>
            <li>A short video gets fewer or shorter moments; a video without a transcript has none.</li>
          </ul>
        </section>
        <div className="wc-actions wc-kc-guide__actions">
          <button type="button" className="wc-button wc-button--primary" onClick={onClose}>
            Got it
          </button>
        </div>
      </div>
    </div>
  );
}
