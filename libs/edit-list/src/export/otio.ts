/**
 * OpenTimelineIO JSON (.otio): a Timeline.1 with one video and one audio track, a Clip.2 per
 * piece whose media reference is the original (ExternalReference.1), times as RationalTime.1 at
 * the source's rate. OTIO has no standard gain effect: a muted piece's audio clip carries its gain
 * in metadata (`metadata.wordcut.gain`, 0 to 1), and so does the timeline (`metadata.wordcut`:
 * source file, exact rate, variable frame rate). Further timelines (clips) make the file a
 * SerializableCollection.1 of Timeline.1s, the edit first.
 */
import { rateValue, type ExportSource, type NamedTimeline, type TimelinePiece } from './timeline';

const rational = (value: number, rate: number) => ({ OTIO_SCHEMA: 'RationalTime.1', rate, value });
const range = (start: number, duration: number, rate: number) => ({ OTIO_SCHEMA: 'TimeRange.1', start_time: rational(start, rate), duration: rational(duration, rate) });

function timeline(source: ExportSource, name: string, pieces: readonly TimelinePiece[]) {
  const rate = rateValue(source.rate);
  const sourceFrames = Math.round(source.durationSec * rate);
  const reference = () => ({
    OTIO_SCHEMA: 'ExternalReference.1',
    name: source.fileName,
    available_range: range(0, sourceFrames, rate),
    available_image_bounds: null,
    metadata: {},
    target_url: source.url,
  });
  const clip = (p: TimelinePiece, audio: boolean) => ({
    OTIO_SCHEMA: 'Clip.2',
    name: source.fileName,
    source_range: range(p.srcIn, p.srcOut - p.srcIn, rate),
    effects: [],
    markers: [],
    enabled: true,
    media_references: { DEFAULT_MEDIA: reference() },
    active_media_reference_key: 'DEFAULT_MEDIA',
    metadata: audio && p.gain < 1 ? { wordcut: { gain: p.gain } } : {},
  });
  const track = (kind: 'Video' | 'Audio') => ({
    OTIO_SCHEMA: 'Track.1',
    name: kind === 'Video' ? 'V1' : 'A1',
    kind,
    source_range: null,
    effects: [],
    markers: [],
    enabled: true,
    metadata: {},
    children: pieces.map((p) => clip(p, kind === 'Audio')),
  });
  return {
    OTIO_SCHEMA: 'Timeline.1',
    name,
    global_start_time: null,
    metadata: {
      wordcut: {
        source: source.fileName,
        frameRate: `${source.rate.num}/${source.rate.den}`,
        variableFrameRate: source.variableFrameRate,
        gain: 'a muted audio clip carries metadata.wordcut.gain (0 to 1)',
      },
    },
    tracks: {
      OTIO_SCHEMA: 'Stack.1',
      name: 'tracks',
      source_range: null,
      effects: [],
      markers: [],
      enabled: true,
      metadata: {},
      children: source.hasAudio ? [track('Video'), track('Audio')] : [track('Video')],
    },
  };
}

export function writeOtio(source: ExportSource, pieces: readonly TimelinePiece[], extra: readonly NamedTimeline[] = []): string {
  const main = timeline(source, source.title, pieces);
  if (extra.length === 0) return `${JSON.stringify(main, null, 4)}\n`;
  const collection = {
    OTIO_SCHEMA: 'SerializableCollection.1',
    name: source.title,
    metadata: { wordcut: { source: source.fileName, timelines: 'the edit first, then its clips' } },
    children: [main, ...extra.map((t) => timeline(source, t.name, t.pieces))],
  };
  return `${JSON.stringify(collection, null, 4)}\n`;
}
