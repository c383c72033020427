/**
 * Reads OpenTimelineIO JSON: a Timeline.1, or a SerializableCollection.1 of them. The rules it
 * holds a file to (OTIO's serialised schema): every object names a known schema and version;
 * a timeline's tracks are a Stack.1 of Track.1 (kind Video or Audio); a track's items are
 * Clip.1/Clip.2, Gap.1, Transition.1 or a nested Stack.1/Track.1; a clip's range is its
 * source_range, else its media's available_range. An item's record time is the sum of the
 * durations of the items before it, gaps included; transitions overlap their neighbours and take
 * no time; a track's own source_range trims and shifts what it shows. Every time is a whole
 * number of frames of the timeline's rate (its WordCut metadata's exact rate, else the first rate
 * in it); a time effect on a clip is refused (its source frames would not be its record frames).
 */
import { rationalRate, type Rate } from '../timeline';
import { asArray, asObject, fail, framesAt, isObject, optionalRange, optionalString, rationalTime, schema, timeRange, type JsonObject, type Range } from './otio-json';
import { checkSize, eventCounter, type ReadEvent, type ReadResult, type ReadTimeline, type ReadTrack } from './read-timeline';

const MEDIA_REFERENCES = ['ExternalReference.1', 'MissingReference.1', 'GeneratorReference.1', 'ImageSequenceReference.1'];
const ITEMS = ['Clip.1', 'Clip.2', 'Gap.1', 'Transition.1', 'Stack.1', 'Track.1'];
const TIME_EFFECTS = new Set(['LinearTimeWarp.1', 'FreezeFrame.1', 'TimeEffect.1']);
const MAX_NESTING = 32;
/** No rate anywhere (an empty timeline): film's 24, OTIO's customary rate. */
const NO_RATE = 24;

interface Ctx {
  rate: number;
  count: () => void;
}

/** An item laid in a track: the record time it takes, and the event it is (null for gaps and transitions). */
interface Laid {
  duration: number;
  event: Omit<ReadEvent, 'recIn'> | null;
}

function checkLists(o: JsonObject, where: string, timeEffects: boolean): void {
  for (const key of ['effects', 'markers'] as const) {
    if (o[key] === undefined) continue;
    asArray(o[key], `${key} of ${where}`).forEach((e, k) => {
      const s = asObject(e, `${key}[${k}] of ${where}`).OTIO_SCHEMA;
      if (typeof s !== 'string' || !/^[A-Za-z][A-Za-z0-9_]*\.\d+$/.test(s)) fail(`${key}[${k}] of ${where} has no OTIO_SCHEMA`);
      if (key === 'effects' && !timeEffects && TIME_EFFECTS.has(s as string)) fail(`${where} carries ${String(s)}: a time effect on a clip is not read`);
    });
  }
}

function mediaOf(clip: JsonObject, clipSchema: string, where: string): { name: string; available: Range | null } {
  let ref: unknown = clip.media_reference;
  if (clipSchema === 'Clip.2') {
    const refs = asObject(clip.media_references, `media_references of ${where}`);
    const key = clip.active_media_reference_key;
    if (typeof key !== 'string' || !Object.hasOwn(refs, key)) return fail(`active_media_reference_key of ${where} names no media reference`);
    ref = refs[key];
  }
  if (ref === undefined || ref === null) return { name: '', available: null };
  const o = asObject(ref, `the media reference of ${where}`);
  const s = schema(o, MEDIA_REFERENCES, `the media reference of ${where}`);
  if (s === 'ExternalReference.1' && typeof o.target_url !== 'string') fail(`the ExternalReference.1 of ${where} has no target_url`);
  return { name: optionalString(o, 'name', where), available: optionalRange(o.available_range, `available_range of the media of ${where}`) };
}

function layClip(o: JsonObject, s: string, ctx: Ctx, where: string): Laid {
  checkLists(o, where, false);
  const media = mediaOf(o, s, where);
  const range = optionalRange(o.source_range, `source_range of ${where}`) ?? media.available ?? fail(`${where} has no source_range and its media no available_range`);
  const srcIn = framesAt(range.start, ctx.rate, `start of ${where}`);
  const duration = framesAt(range.duration, ctx.rate, `duration of ${where}`);
  const event: Laid['event'] = { srcIn, srcOut: srcIn + duration, sourceName: media.name || optionalString(o, 'name', where) };
  const wordcut = isObject(o.metadata) && isObject(o.metadata.wordcut) ? o.metadata.wordcut : null;
  if (wordcut && wordcut.gain !== undefined) {
    const gain = wordcut.gain;
    if (typeof gain !== 'number' || !(gain >= 0 && gain <= 1)) fail(`metadata.wordcut.gain of ${where} is not a number from 0 to 1`);
    event.gain = gain as number;
  }
  if (o.enabled === false) event.disabled = true;
  return { duration, event };
}

/** Items of a track at their record times (track-internal), and the track's own length. */
function layTrack(o: JsonObject, ctx: Ctx, depth: number, where: string): { items: Array<{ rec: number; laid: Laid }>; length: number } {
  const items: Array<{ rec: number; laid: Laid }> = [];
  let rec = 0;
  asArray(o.children, `children of ${where}`).forEach((child, k) => {
    const laid = layItem(asObject(child, `item ${k + 1} of ${where}`), ctx, depth, `item ${k + 1} of ${where}`);
    items.push({ rec, laid });
    rec += laid.duration;
  });
  return { items, length: rec };
}

/** A nested Stack or Track in a track: one item, as long as its trimmed range. */
function layNested(o: JsonObject, s: string, ctx: Ctx, depth: number, where: string): Laid {
  if (depth >= MAX_NESTING) fail(`${where} is nested deeper than ${MAX_NESTING}`);
  checkLists(o, where, true);
  const children = asArray(o.children, `children of ${where}`).map((c, k) => asObject(c, `item ${k + 1} of ${where}`));
  const length = s === 'Track.1' ? layTrack(o, ctx, depth + 1, where).length : Math.max(0, ...children.map((c, k) => layItem(c, ctx, depth + 1, `item ${k + 1} of ${where}`).duration));
  const range = optionalRange(o.source_range, `source_range of ${where}`);
  const srcIn = range ? framesAt(range.start, ctx.rate, `start of ${where}`) : 0;
  const duration = range ? framesAt(range.duration, ctx.rate, `duration of ${where}`) : length;
  return { duration, event: { srcIn, srcOut: srcIn + duration, sourceName: optionalString(o, 'name', where), nested: true } };
}

function layItem(o: JsonObject, ctx: Ctx, depth: number, where: string): Laid {
  ctx.count();
  const s = schema(o, ITEMS, where);
  if (s === 'Clip.1' || s === 'Clip.2') return layClip(o, s, ctx, where);
  if (s === 'Gap.1') {
    checkLists(o, where, true);
    const range = o.source_range === undefined || o.source_range === null ? fail(`${where} (a gap) has no source_range`) : timeRange(o.source_range, `source_range of ${where}`);
    return { duration: framesAt(range.duration, ctx.rate, `duration of ${where}`), event: null };
  }
  if (s === 'Transition.1') {
    framesAt(rationalTime(o.in_offset, `in_offset of ${where}`), ctx.rate, `in_offset of ${where}`);
    framesAt(rationalTime(o.out_offset, `out_offset of ${where}`), ctx.rate, `out_offset of ${where}`);
    return { duration: 0, event: null };
  }
  return layNested(o, s, ctx, depth, where);
}

/** A top-level track: its events on record frames, trimmed and shifted by its own source_range. */
function readTrack(o: JsonObject, ctx: Ctx, where: string): ReadTrack {
  schema(o, ['Track.1'], where);
  checkLists(o, where, true);
  const kind = o.kind;
  if (kind !== 'Video' && kind !== 'Audio') fail(`kind of ${where} is ${JSON.stringify(kind)}, not "Video" or "Audio"`);
  const { items, length } = layTrack(o, ctx, 1, where);
  const window = optionalRange(o.source_range, `source_range of ${where}`);
  const from = window ? framesAt(window.start, ctx.rate, `start of ${where}`) : 0;
  const to = window ? from + framesAt(window.duration, ctx.rate, `duration of ${where}`) : length;
  const events: ReadEvent[] = [];
  for (const { rec, laid } of items) {
    if (!laid.event) continue;
    const a = Math.max(rec, from);
    const b = Math.min(rec + laid.duration, to);
    if (b <= a && laid.duration > 0) continue;
    events.push({ ...laid.event, srcIn: laid.event.srcIn + (a - rec), srcOut: laid.event.srcIn + (b - rec), recIn: a - from });
  }
  return { name: optionalString(o, 'name', where), kind: kind === 'Video' ? 'video' : 'audio', events };
}

/** The first rate of a RationalTime.1 in `v`, depth first. */
function firstRate(v: unknown, depth = 0): number | null {
  if (depth > 4 * MAX_NESTING || (typeof v !== 'object' || v === null)) return null;
  if (isObject(v) && v.OTIO_SCHEMA === 'RationalTime.1' && typeof v.rate === 'number' && v.rate > 0) return v.rate;
  for (const child of Object.values(v)) {
    const r = firstRate(child, depth + 1);
    if (r !== null) return r;
  }
  return null;
}

/** The timeline's rate: WordCut's exact fraction in its metadata, else the first rate in the file. */
function rateOf(tl: JsonObject): { value: number; rate: Rate } {
  const wordcut = isObject(tl.metadata) && isObject(tl.metadata.wordcut) ? tl.metadata.wordcut : null;
  const exact = typeof wordcut?.frameRate === 'string' ? /^(\d{1,7})\/(\d{1,7})$/.exec(wordcut.frameRate) : null;
  if (exact && Number(exact[1]) > 0 && Number(exact[2]) > 0) {
    const rate = { num: Number(exact[1]), den: Number(exact[2]) };
    return { value: rate.num / rate.den, rate };
  }
  const value = firstRate(tl.tracks) ?? firstRate(tl.global_start_time) ?? NO_RATE;
  return { value, rate: rationalRate(value) };
}

function readTimeline(tl: JsonObject, count: () => void, where: string): ReadTimeline {
  schema(tl, ['Timeline.1'], where);
  const stack = asObject(tl.tracks, `tracks of ${where}`);
  schema(stack, ['Stack.1'], `tracks of ${where}`);
  checkLists(stack, `tracks of ${where}`, true);
  const { value, rate } = rateOf(tl);
  const ctx: Ctx = { rate: value, count };
  const start = tl.global_start_time === undefined || tl.global_start_time === null ? 0 : framesAt(rationalTime(tl.global_start_time, `global_start_time of ${where}`), value, `global_start_time of ${where}`);
  const tracks = asArray(stack.children, `children of the tracks of ${where}`).map((t, k) => readTrack(asObject(t, `track ${k + 1} of ${where}`), ctx, `track ${k + 1} of ${where}`));
  return { name: optionalString(tl, 'name', where), rate, start, tracks };
}

export function readOtio(text: string): ReadResult {
  checkSize('otio', text);
  let top: unknown;
  try {
    top = JSON.parse(text);
  } catch {
    return fail('the input is not JSON');
  }
  const o = asObject(top, 'the top-level value');
  const count = eventCounter('otio');
  if (schema(o, ['Timeline.1', 'SerializableCollection.1'], 'the top-level object') === 'Timeline.1') return { format: 'otio', timelines: [readTimeline(o, count, 'the timeline')] };
  const children = asArray(o.children, 'children of the collection');
  return { format: 'otio', timelines: children.map((c, k) => readTimeline(asObject(c, `item ${k + 1} of the collection`), count, `timeline ${k + 1}`)) };
}
