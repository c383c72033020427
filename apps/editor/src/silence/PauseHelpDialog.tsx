import { KEY_POINT_OPENERS, MEDIA_EDGE_SEC, PAUSE_RULES as R, SILENCE_LEVEL_RULES as L } from '@wordcut/transcript';
import { InfoDialog } from '../shared/dialogs';
import { useSilence, useSilenceStore } from './silenceContext';

const pct = (share: number) => `${Math.round(share * 100)}%`;
/** Seconds a frame of the energy series lasts (100 frames per second). */
const FRAME_MS = 10;

/**
 * 'How Pause Detection Works': the rules the server applies, in words, with the numbers taken
 * from the rules module itself (so the text cannot drift from what runs).
 */
export function PauseHelpDialog() {
  const store = useSilenceStore();
  const open = useSilence((s) => s.helpOpen);
  const padding = useSilence((s) => s.analysis?.summary.padding ?? null);
  return (
    <InfoDialog
      open={open}
      onOpenChange={(next) => store.update({ helpOpen: next })}
      title="How Pause Detection Works"
      description="Each pause is found in the audio, placed among the transcript's words, typed by the first rule that fits, and recommended for removal or kept. The reason on each row names its rule."
      className="wc-pause-help"
      testId="pause-help"
    >
          <div className="wc-pause-help__body">
            <h3>1. Silence in the audio</h3>
            <p>
              The audio is measured every {FRAME_MS} ms. The recording&apos;s noise floor is its quietest tenth ({L.floorPercentile}th
              percentile) and its speech level the {L.speechPercentile}th percentile. A moment is silent when it is no louder than the
              floor plus {pct(L.marginShare)} of the way to the speech level (between {L.minMarginDb} and {L.maxMarginDb} dB above the
              floor, and at least {L.speechHeadroomDb} dB under speech), so quiet, loud and noisy recordings find the same pauses. A click
              of up to {L.maxClickFrames} frames does not break a silence; silences shorter than {L.minSpanSec} s are gaps inside speech.
            </p>
            <h3>2. Placed among the words</h3>
            <p>
              Words whose middle comes before the silence&apos;s middle are before it. When the transcript stretches words over the silence,
              its place is estimated from how much was said before it. Muted stretches are not pauses. A video without sound falls back on
              the gaps between words.
            </p>
            <h3>3. The speaker&apos;s rhythm</h3>
            <p>
              Silences of {R.distributionMinSec} s or more between words are this speaker&apos;s pauses; their usual pause is the median of
              those after a sentence ends ({R.defaultUsualPauseSec} s until there are {R.minPausesToLearn} to learn from).
            </p>
            <h3>4. Types and recommendations (the first rule that fits)</h3>
            <ul>
              <li>
                <strong>Technical, remove:</strong> dead air before the first or after the last word; a signal dropout ({R.dropoutBelowFloorDb}{' '}
                dB or more under the noise floor); no speech for {R.longGapSec} s or more and {R.longGapFactor}x the usual pause.
              </li>
              <li>
                <strong>Awkward, remove:</strong> after a filler (um, uh, er…); before a filler inside a sentence; before a restart (a word
                repeated, or a word cut off with a dash).
              </li>
              <li>
                <strong>Natural, keep:</strong> in a transcript without punctuation (fewer than one sentence end per {R.wordsPerSentenceEnd}{' '}
                words), any other pause; a breath at a comma or other clause break, up to {R.longerFactor}x the usual pause.
              </li>
              <li>
                <strong>Awkward, remove:</strong> any other pause inside a sentence.
              </li>
              <li>
                <strong>Dramatic, keep:</strong> after a question or an exclamation; before a key point (words such as{' '}
                {KEY_POINT_OPENERS.slice(0, 5).map((k) => `“${k}”`).join(', ')}); after a sentence, longer than {R.longerFactor}x the usual
                pause.
              </li>
              <li>
                <strong>Natural, keep:</strong> between sentences at the speaker&apos;s usual rhythm.
              </li>
            </ul>
            <p>
              A dramatic or natural pause far longer than usual (more than {R.farFactor}x the usual pause and {R.farExtraSec} s over it) is
              recommended for removal too.
            </p>
            <h3>5. Confidence</h3>
            <p>
              How sure the rule is, lowered when the transcript and the audio disagree on where the pause falls, and lowered more when only
              word times were available.
            </p>
            <h3>6. Minimum pause and automatic thresholds</h3>
            <p>
              Pauses at least as long as the minimum are listed (measured to {FRAME_MS} ms). The suggested minimum is {R.suggestFactor}x the
              speaker&apos;s usual pause, or more when their pauses vary a lot ({R.suggestMinSec} to {R.suggestMaxSec} s). With this
              speaker&apos;s threshold on, the suggestion is used when it is lower than the slider.
            </p>
            <h3>7. Removal</h3>
            <p>
              {padding !== null ? `${padding} s` : 'A little'} of silence is kept on each side of a removed pause next to speech, so no word
              sounds clipped (a quarter of a short pause); none at the very start or end (within {MEDIA_EDGE_SEC} s).
            </p>
          </div>
    </InfoDialog>
  );
}
