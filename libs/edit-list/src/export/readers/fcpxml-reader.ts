/**
 * Reads FCPXML (versions 1.5 to 1.14, Apple's DTDs): every project of the document as a timeline
 * of its sequence's primary storyline. The rules it holds a file to: the root is `fcpxml` with a
 * known version; a sequence names a format with a frameDuration; every time of a storyline item
 * is a rational 'N/Ds' or 'Ns' and a whole number of frames; the spine's items follow one another
 * with no hole and no overlap (a gap fills a hole; transitions overlap the cut they sit on and
 * take no time); every `ref` names a resource. Connected clips (those with a lane) are not read.
 */
import { ReadError, checkSize, eventCounter, reduceRate, type ReadEvent, type ReadResult, type ReadTimeline } from './read-timeline';
import { ZERO, parseTime, toFrames, toSeconds, type Rational } from './rational';
import { XmlError, childrenNamed, parseXml, type XmlElement } from './xml';

const MIN_MINOR = 5;
const MAX_MINOR = 14;
/** The level FCPXML writes for silence; at or below it a gain is 0. */
const SILENCE_DB = -96;

interface Resources {
  frameDurations: Map<string, Rational>;
  names: Map<string, string>;
}

const fail = (message: string): never => {
  throw new ReadError('fcpxml', message);
};

function attr(el: XmlElement, name: string): string | undefined {
  return el.attrs.get(name);
}

function time(el: XmlElement, name: string, where: string, fallback?: Rational): Rational {
  const text = attr(el, name);
  if (text === undefined) return fallback ?? fail(`${where} has no ${name}`);
  return parseTime(text) ?? fail(`${name}="${text}" of ${where} is not a time ('N/Ds' or 'Ns')`);
}

function frames(t: Rational, fd: Rational, what: string): number {
  return toFrames(t, fd) ?? fail(`${what} (${t.num}/${t.den}s) is not a whole number of frames of ${fd.num}/${fd.den}s`);
}

function readResources(root: XmlElement): Resources {
  const res: Resources = { frameDurations: new Map(), names: new Map() };
  for (const block of childrenNamed(root, 'resources')) {
    for (const r of block.children) {
      const id = attr(r, 'id') ?? fail(`a ${r.name} resource has no id`);
      if (res.names.has(id)) fail(`the resource id ${id} is used twice`);
      res.names.set(id, attr(r, 'name') ?? id);
      if (r.name === 'format' && attr(r, 'frameDuration') !== undefined) {
        const fd = time(r, 'frameDuration', `format ${id}`);
        if (fd.num <= 0n) fail(`format ${id} has a frameDuration that is not positive`);
        res.frameDurations.set(id, fd);
      }
    }
  }
  return res;
}

/** dB text ('-20dB', '-20') as a gain. */
function gainOf(text: string, where: string): number {
  const m = /^(-?\d+(?:\.\d+)?) ?(?:dB)?$/.exec(text.trim());
  if (!m) return fail(`${where}: the volume '${text}' is not in dB`);
  const db = Number(m[1]);
  return db <= SILENCE_DB ? 0 : 10 ** (db / 20);
}

/**
 * The constant gain an item's adjust-volume gives it: its keyframes' level when they all agree,
 * else the param's value, else the amount. Keyframe times are in the item's local time, so they
 * must lie within [start, start + duration].
 */
function readGain(item: XmlElement, start: Rational, duration: Rational, where: string): number | undefined {
  const volumes = childrenNamed(item, 'adjust-volume');
  if (volumes.length > 1) fail(`${where} has more than one adjust-volume`);
  const volume = volumes[0];
  if (!volume) return undefined;
  let gain = gainOf(attr(volume, 'amount') ?? '0dB', where);
  for (const param of childrenNamed(volume, 'param')) {
    if (attr(param, 'name') !== 'amount') continue;
    const value = attr(param, 'value');
    if (value !== undefined) gain = gainOf(value, where);
    const keyframes = childrenNamed(param, 'keyframeAnimation').flatMap((a) => childrenNamed(a, 'keyframe'));
    const lo = toSeconds(start);
    const hi = lo + toSeconds(duration);
    const levels = keyframes.map((k) => {
      const t = toSeconds(time(k, 'time', `a keyframe of ${where}`));
      if (t < lo - 1e-9 || t > hi + 1e-9) fail(`${where}: a volume keyframe at ${t}s lies outside the clip's local time ${lo}s to ${hi}s`);
      return gainOf(attr(k, 'value') ?? fail(`a keyframe of ${where} has no value`), where);
    });
    if (levels.length > 0) return levels.every((g) => g === levels[0]) ? levels[0] : undefined;
  }
  return gain;
}

const NAMED_BY_REF = new Set(['asset-clip', 'ref-clip', 'mc-clip', 'video', 'audio', 'title']);
const NESTED = new Set(['ref-clip', 'mc-clip', 'sync-clip']);
const ITEMS = new Set([...NAMED_BY_REF, 'clip', 'sync-clip', 'gap', 'transition']);

/** The source frame an item's local `start` maps to: a clip's through its primary video or audio. */
function sourceStart(item: XmlElement, start: number, fd: Rational, where: string): { srcIn: number; media?: XmlElement } {
  if (item.name !== 'clip') return { srcIn: start };
  const media = item.children.find((ch) => (ch.name === 'video' || ch.name === 'audio' || ch.name === 'asset-clip') && attr(ch, 'lane') === undefined);
  if (!media) return { srcIn: start };
  const offset = frames(time(media, 'offset', where, ZERO), fd, `offset of the media in ${where}`);
  const mediaStart = frames(time(media, 'start', where, ZERO), fd, `start of the media in ${where}`);
  return { srcIn: mediaStart + (start - offset), media };
}

function readSpine(spine: XmlElement, res: Resources, fd: Rational, tcStart: number, count: () => void): ReadEvent[] {
  const events: ReadEvent[] = [];
  let expected = tcStart;
  spine.children.forEach((item, k) => {
    const where = `spine item ${k + 1} (${item.name})`;
    if (!ITEMS.has(item.name)) fail(`${where} is not a storyline item this reader takes`);
    count();
    const offsetT = time(item, 'offset', where);
    const durationT = time(item, 'duration', where);
    const offset = frames(offsetT, fd, `offset of ${where}`);
    const duration = frames(durationT, fd, `duration of ${where}`);
    if (duration < 0) fail(`${where} has a negative duration`);
    if (item.name === 'transition') return;
    if (offset !== expected) fail(`${where} starts at frame ${offset}, not at frame ${expected} where the storyline reaches (no holes or overlaps in a spine)`);
    expected += duration;
    if (item.name === 'gap') return;
    const ownFormat = attr(item, 'format');
    const ownFd = ownFormat === undefined ? fd : res.frameDurations.get(ownFormat);
    if (ownFd && ownFd.num * fd.den !== fd.num * ownFd.den) fail(`${where} is at another frame rate than its sequence (a conformed clip is not read)`);
    const startT = time(item, 'start', where, ZERO);
    const { srcIn, media } = sourceStart(item, frames(startT, fd, `start of ${where}`), fd, where);
    const ref = attr(media ?? item, 'ref');
    if (NAMED_BY_REF.has((media ?? item).name) && ref === undefined) fail(`${where} has no ref`);
    const refName = ref === undefined ? undefined : (res.names.get(ref) ?? fail(`${where}: ref="${ref}" names no resource`));
    const event: ReadEvent = { srcIn, srcOut: srcIn + duration, recIn: offset - tcStart, sourceName: refName ?? attr(item, 'name') ?? '' };
    const gain = readGain(item, startT, durationT, where);
    if (gain !== undefined) event.gain = gain;
    if (NESTED.has(item.name) || (item.name === 'clip' && !media)) event.nested = true;
    if (attr(item, 'enabled') === '0') event.disabled = true;
    events.push(event);
  });
  return events;
}

function readProject(project: XmlElement, res: Resources, count: () => void): ReadTimeline {
  const name = attr(project, 'name') ?? '';
  const where = `project '${name}'`;
  const sequences = childrenNamed(project, 'sequence');
  if (sequences.length !== 1) fail(`${where} has ${sequences.length} sequences, not one`);
  const sequence = sequences[0]!;
  const formatId = attr(sequence, 'format') ?? fail(`the sequence of ${where} names no format`);
  const fd = res.frameDurations.get(formatId) ?? fail(`the sequence of ${where} names format ${formatId}, which has no frameDuration`);
  const tcStart = frames(time(sequence, 'tcStart', where, ZERO), fd, `tcStart of ${where}`);
  if (attr(sequence, 'duration') !== undefined) time(sequence, 'duration', `the sequence of ${where}`);
  const spines = childrenNamed(sequence, 'spine');
  if (spines.length !== 1) fail(`the sequence of ${where} has ${spines.length} spines, not one`);
  const rate = reduceRate(Number(fd.den), Number(fd.num));
  return { name, rate, start: tcStart, tracks: [{ name: 'spine', kind: 'audio+video', events: readSpine(spines[0]!, res, fd, tcStart, count) }] };
}

/** Every project of the document, where the DTD puts them: at the root, in an event, in the library's events. */
function projectsOf(root: XmlElement): XmlElement[] {
  const events = [...childrenNamed(root, 'event'), ...childrenNamed(root, 'library').flatMap((l) => childrenNamed(l, 'event'))];
  return [...childrenNamed(root, 'project'), ...events.flatMap((e) => childrenNamed(e, 'project'))];
}

export function readFcpxml(text: string): ReadResult {
  checkSize('fcpxml', text);
  let root: XmlElement;
  try {
    root = parseXml(text);
  } catch (err) {
    if (err instanceof XmlError) throw new ReadError('fcpxml', err.message);
    throw err;
  }
  if (root.name !== 'fcpxml') fail(`the root element is <${root.name}>, not <fcpxml>`);
  const version = attr(root, 'version') ?? fail('<fcpxml> has no version');
  const minor = /^1\.(\d{1,2})$/.exec(version);
  if (!minor || Number(minor[1]) < MIN_MINOR || Number(minor[1]) > MAX_MINOR) fail(`version "${version}" is not one this reader knows (1.${MIN_MINOR} to 1.${MAX_MINOR})`);
  const res = readResources(root);
  const count = eventCounter('fcpxml');
  return { format: 'fcpxml', version, timelines: projectsOf(root).map((p) => readProject(p, res, count)) };
}
