/**
 * Over 400 lines: the undo history and its persistence share one private format (patches between
 * states, content fingerprints); keeping them together keeps that format in one file.
 */
import type { Paragraph, Word } from '@wordcut/contracts';
import { attachParagraphs, type TranscriptContent } from '@wordcut/transcript';
import type { PendingCut, PendingMute } from './pending';
import type { WordRange } from './selection';
import type { TimeRange } from './preview';

/** Undo entries kept. */
export const HISTORY_LIMIT = 50;

/** Edits of the transcript text. */
export type TextOperation = 'edit-word' | 'delete-words' | 'cut-selection' | 'paste' | 'remove-filler' | 'replace' | 'detect-fillers';
/** Changes of the pending cut and mute marks (the text stays as it is). */
export type MarkOperation = 'mark-cut' | 'unmark-cut' | 'clear-cuts' | 'mute' | 'unmute' | 'clear-mutes' | 'restore' | 'keep-preview' | 'cancel-keep';
/** A new version of the video's edit on the server (a processing job, a revert, a caption file that replaced the words). */
export type VersionOperation = 'process' | 'revert' | 'replace-transcript';
export type EditOperation = TextOperation | MarkOperation | VersionOperation;

const OPERATIONS: ReadonlySet<string> = new Set<EditOperation>([
  'edit-word', 'delete-words', 'cut-selection', 'paste', 'remove-filler', 'replace', 'detect-fillers',
  'mark-cut', 'unmark-cut', 'clear-cuts', 'mute', 'unmute', 'clear-mutes', 'restore', 'keep-preview', 'cancel-keep',
  'process', 'revert', 'replace-transcript',
]);

/** The server's edit versions a version entry goes between (undo restores `before`, redo `after`). */
export interface VersionStep {
  before: number;
  after: number;
}

/** The kept words of a keep-selection preview and the time ranges it would cut. */
export interface KeepMark {
  range: WordRange;
  cuts: readonly TimeRange[];
}

/** The pending marks at one moment: what a marks entry restores on undo or redo. */
export interface MarkSet {
  cuts: readonly PendingCut[];
  mutes: readonly PendingMute[];
  /** the keep preview (null: none); absent in entries stored before it was kept here */
  keep?: KeepMark | null;
}

export interface HistoryEntry {
  id: string;
  timestamp: number;
  operation: EditOperation;
  description: string;
  beforeState: TranscriptContent;
  afterState: TranscriptContent;
  /** a marks entry: the marks before and after it (its text states are the same content) */
  marks?: { before: MarkSet; after: MarkSet };
  /** a version entry: the server versions on both sides (its marks are the pending marks on each side) */
  version?: VersionStep;
}

/**
 * A version entry: the server made a new version (the transcript before and after it, the pending
 * marks on each side as they were carried through). Undo and redo restore a version on the
 * server, then put its transcript and the marks of that side in place.
 */
export function versionEntry(
  meta: Pick<HistoryEntry, 'id' | 'timestamp' | 'operation' | 'description'>,
  before: TranscriptContent,
  after: TranscriptContent,
  marks: { before: MarkSet; after: MarkSet },
  version: VersionStep,
): HistoryEntry {
  return { ...meta, beforeState: before, afterState: after, marks, version };
}

/** A marks entry: the text does not change, undo and redo swap the marks. */
export function marksEntry(
  meta: Pick<HistoryEntry, 'id' | 'timestamp' | 'operation' | 'description'>,
  content: TranscriptContent,
  before: MarkSet,
  after: MarkSet,
): HistoryEntry {
  return { ...meta, beforeState: content, afterState: content, marks: { before, after } };
}

function sameMarks(a: MarkSet, b: MarkSet): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Marks of one kind were settled by a job (processed mutes, applied cuts): they leave every state
 * of the history, and marks entries that no longer change anything are dropped.
 */
export function settleMarks(h: History, kind: keyof MarkSet): History {
  const clear = (set: MarkSet): MarkSet => (kind === 'keep' ? { ...set, keep: null } : { ...set, [kind]: [] });
  let index = h.index;
  const entries: HistoryEntry[] = [];
  h.entries.forEach((entry, k) => {
    if (!entry.marks) {
      entries.push(entry);
      return;
    }
    const before = clear(entry.marks.before);
    const after = clear(entry.marks.after);
    if (sameMarks(before, after) && !entry.version) {
      if (k < h.index) index--;
      return;
    }
    entries.push({ ...entry, marks: { before, after } });
  });
  return { entries, index };
}

/** A linear history: entries[0..index) are applied, entries[index..] can be redone. */
export interface History {
  entries: readonly HistoryEntry[];
  /** how many entries are applied, 0..entries.length */
  index: number;
}

export const EMPTY_HISTORY: History = Object.freeze({ entries: Object.freeze([]), index: 0 });

/**
 * Record an edit. The history is linear: an edit made after an undo drops the redo
 * branch. Only the newest HISTORY_LIMIT entries are kept.
 */
export function pushEntry(h: History, entry: HistoryEntry): History {
  const kept = [...h.entries.slice(0, h.index), entry];
  const entries = kept.length > HISTORY_LIMIT ? kept.slice(kept.length - HISTORY_LIMIT) : kept;
  return { entries, index: entries.length };
}

/** Step back: the caller applies entry.beforeState. Null when nothing is left to undo. */
export function undoStep(h: History): { history: History; entry: HistoryEntry } | null {
  const entry = h.entries[h.index - 1];
  return entry ? { history: { entries: h.entries, index: h.index - 1 }, entry } : null;
}

/** Step forward: the caller applies entry.afterState. Null when nothing is left to redo. */
export function redoStep(h: History): { history: History; entry: HistoryEntry } | null {
  const entry = h.entries[h.index];
  return entry ? { history: { entries: h.entries, index: h.index + 1 }, entry } : null;
}

/** Undo badge count. */
export function undoCount(h: History): number {
  return h.index;
}

/** Redo badge count. */
export function redoCount(h: History): number {
  return h.entries.length - h.index;
}

/** Entries that changed the transcript or the video (marks entries are local until a job runs). */
export function textEntryCount(h: History): number {
  return h.entries.reduce((n, e) => (e.marks && !e.version ? n : n + 1), 0);
}

/** The oldest state the history can restore (clear-history reverts to it), or null when empty. */
export function originalState(h: History): TranscriptContent | null {
  return h.entries[0]?.beforeState ?? null;
}

/**
 * A module-level reference: hashing calls it for every byte, and a global lookup of Math per call
 * is very slow in sandboxed realms (node:vm, as test runners and server renderers use).
 */
const imul = Math.imul;
const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
/** scratch views to hash a float's exact bits without formatting it */
const FLOAT = new Float64Array(1);
const FLOAT_WORDS = new Uint32Array(FLOAT.buffer);

function hashUint32(h: number, value: number): number {
  h = imul(h ^ (value & 0xff), FNV_PRIME);
  h = imul(h ^ ((value >>> 8) & 0xff), FNV_PRIME);
  h = imul(h ^ ((value >>> 16) & 0xff), FNV_PRIME);
  return imul(h ^ (value >>> 24), FNV_PRIME);
}

function hashNumber(h: number, value: number): number {
  FLOAT[0] = value;
  return hashUint32(hashUint32(h, FLOAT_WORDS[0]!), FLOAT_WORDS[1]!);
}

function hashString(h: number, text: string): number {
  h = hashUint32(h, text.length); // the length keeps "ab"+"c" apart from "a"+"bc"
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h = imul(h ^ (c & 0xff), FNV_PRIME);
    h = imul(h ^ (c >>> 8), FNV_PRIME);
  }
  return h;
}

/**
 * A fast non-cryptographic hash (FNV-1a, 32 bits, hex) of what an edit can change: the words
 * (text, start, end, confidence, exact float bits), the paragraph sizes and the filler indices.
 * Numbering (word_order, group_number) and paragraph times are derived from those, so they are
 * left out. Equal content gives an equal fingerprint; a stored history checks it to know whether
 * it still applies to the transcript the server holds.
 */
export function contentFingerprint(c: TranscriptContent): string {
  let h = hashUint32(FNV_OFFSET, c.words.length);
  for (const w of c.words) {
    h = hashString(h, w.text);
    h = hashNumber(h, w.start);
    h = hashNumber(h, w.end);
    h = hashNumber(h, w.confidence);
  }
  h = hashUint32(h, c.paragraphs.length);
  for (const p of c.paragraphs) h = hashUint32(h, p.wordIndices.length);
  h = hashUint32(h, c.fillerWords.length);
  for (const f of c.fillerWords) h = hashUint32(h, f);
  return (h >>> 0).toString(16).padStart(8, '0');
}

/** A word as stored: what an edit can change; numbering is rebuilt. */
type WordTuple = [text: string, start: number, end: number, confidence: number];
/** Replace removed (at position at) by inserted; read backwards it undoes itself. */
type Splice<T> = [at: number, removed: T[], inserted: T[]];

/** The difference between two consecutive states; a missing field did not change. */
interface StatePatch {
  w?: Splice<WordTuple>;
  p?: Splice<number>;
  /** over the gaps between filler indices (fillerGaps), which a word splice barely changes */
  f?: Splice<number>;
}

interface EntryMeta {
  id: string;
  timestamp: number;
  operation: EditOperation;
  description: string;
  marks?: { before: MarkSet; after: MarkSet };
  version?: VersionStep;
}

/** Longest stored history (characters): the oldest entries are left out to stay under it. */
export const STORED_HISTORY_MAX_CHARS = 2_000_000;

interface StoredHistory {
  v: 1;
  index: number;
  fingerprint: string;
  entries: EntryMeta[];
  /** between consecutive states of [e0.before, e0.after, e1.before, e1.after, ...] */
  patches: StatePatch[];
}

function sameWord(a: Word, b: Word): boolean {
  return a.text === b.text && a.start === b.start && a.end === b.end && a.confidence === b.confidence;
}

function toTuple(w: Word): WordTuple {
  return [w.text, w.start, w.end, w.confidence];
}

function fromTuple(t: WordTuple): Word {
  return { text: t[0], start: t[1], end: t[2], confidence: t[3], group_number: 0, word_order: 0 };
}

/** The common prefix/suffix splice turning a into b, or undefined when they are equal. */
function spliceBetween<T>(a: readonly T[], b: readonly T[], same: (x: T, y: T) => boolean): Splice<T> | undefined {
  const shorter = Math.min(a.length, b.length);
  let prefix = 0;
  while (prefix < shorter && same(a[prefix]!, b[prefix]!)) prefix++;
  if (prefix === a.length && prefix === b.length) return undefined;
  let suffix = 0;
  while (suffix < shorter - prefix && same(a[a.length - 1 - suffix]!, b[b.length - 1 - suffix]!)) suffix++;
  return [prefix, a.slice(prefix, a.length - suffix), b.slice(prefix, b.length - suffix)];
}

const sameNumber = (x: number, y: number): boolean => x === y;

function paragraphSizes(c: TranscriptContent): number[] {
  return c.paragraphs.map((p) => p.wordIndices.length);
}

/**
 * Filler indices as gaps from the previous one ([3, 10, 12] -> [3, 7, 2]). Deleting or inserting a
 * word shifts every later index but changes at most one gap, so the stored splice stays small.
 */
function fillerGaps(fillerWords: readonly number[]): number[] {
  return fillerWords.map((f, k) => (k === 0 ? f : f - fillerWords[k - 1]!));
}

function fillersFromGaps(gaps: readonly number[]): number[] {
  let at = 0;
  return gaps.map((gap) => (at += gap));
}

function patchBetween(a: TranscriptContent, b: TranscriptContent): StatePatch {
  const patch: StatePatch = {};
  if (a === b) return patch;
  const w = spliceBetween(a.words, b.words, sameWord);
  if (w) patch.w = [w[0], w[1].map(toTuple), w[2].map(toTuple)];
  const p = spliceBetween(paragraphSizes(a), paragraphSizes(b), sameNumber);
  if (p) patch.p = p;
  const f = spliceBetween(fillerGaps(a.fillerWords), fillerGaps(b.fillerWords), sameNumber);
  if (f) patch.f = f;
  return patch;
}

/** Position of the state at h.index in the state sequence [e0.before, e0.after, e1.before, ...]. */
function anchorOf(index: number): number {
  return index === 0 ? 0 : 2 * index - 1;
}

/**
 * The history as a compact JSON string for localStorage, which cannot hold whole states of a
 * 30,000-word transcript. `current` is the state at h.index (what the server holds); only its
 * fingerprint is stored, and deserializeHistory rebuilds every other state from it through
 * patches between consecutive states (splices of words, paragraph sizes and filler index gaps).
 * Paragraphs are stored by size, so they must be consecutive runs of words, as the server keeps them.
 */
export function serializeHistory(h: History, current: TranscriptContent, maxChars = STORED_HISTORY_MAX_CHARS): string {
  const states = h.entries.flatMap((e) => [e.beforeState, e.afterState]);
  const patches = states.slice(1).map((state, k) => JSON.stringify(patchBetween(states[k]!, state)));
  const metas = h.entries.map(({ id, timestamp, operation, description, marks, version }) =>
    JSON.stringify({ id, timestamp, operation, description, ...(marks ? { marks } : {}), ...(version ? { version } : {}) }),
  );
  // a version entry's patch holds every retimed word: past the budget the oldest entries go (the current state stays the anchor)
  let first = 0;
  let size = patches.reduce((n, p) => n + p.length + 1, 0) + metas.reduce((n, m) => n + m.length + 1, 0);
  while (size > maxChars && first < h.index) {
    size -= metas[first]!.length + 1 + (patches[2 * first]?.length ?? 0) + 1 + (patches[2 * first + 1]?.length ?? 0) + 1;
    first++;
  }
  const fingerprint = JSON.stringify(contentFingerprint(current));
  return `{"v":1,"index":${h.index - first},"fingerprint":${fingerprint},"entries":[${metas.slice(first).join(',')}],"patches":[${patches.slice(2 * first).join(',')}]}`;
}

const isRecord = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
const isInteger = (x: unknown): x is number => Number.isInteger(x);
const isIndex = (x: unknown): x is number => isInteger(x) && x >= 0;
const isFiniteNumber = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);

function isWordTuple(x: unknown): x is WordTuple {
  return Array.isArray(x) && x.length === 4 && typeof x[0] === 'string' && isFiniteNumber(x[1]) && isFiniteNumber(x[2]) && isFiniteNumber(x[3]);
}

function isSplice<T>(x: unknown, item: (v: unknown) => v is T): x is Splice<T> {
  return Array.isArray(x) && x.length === 3 && isIndex(x[0]) && Array.isArray(x[1]) && Array.isArray(x[2]) && x[1].every(item) && x[2].every(item);
}

function isPatch(x: unknown): x is StatePatch {
  return (
    isRecord(x) &&
    (x.w === undefined || isSplice(x.w, isWordTuple)) &&
    (x.p === undefined || isSplice(x.p, isIndex)) &&
    (x.f === undefined || isSplice(x.f, isInteger))
  );
}

function isPendingList(x: unknown): boolean {
  return Array.isArray(x) && x.every((m) => isRecord(m) && typeof m.id === 'string' && Array.isArray(m.wordIndices) && m.wordIndices.every(isIndex));
}

function isKeepMark(x: unknown): boolean {
  return x === undefined || x === null || (isRecord(x) && isRecord(x.range) && isIndex(x.range.start) && isIndex(x.range.end) && Array.isArray(x.cuts));
}

function isMarkSet(x: unknown): x is MarkSet {
  return isRecord(x) && isPendingList(x.cuts) && isPendingList(x.mutes) && isKeepMark(x.keep);
}

function isEntryMeta(x: unknown): x is EntryMeta {
  return (
    isRecord(x) &&
    (x.marks === undefined || (isRecord(x.marks) && isMarkSet(x.marks.before) && isMarkSet(x.marks.after))) &&
    (x.version === undefined || (isRecord(x.version) && isIndex(x.version.before) && isIndex(x.version.after))) &&
    typeof x.id === 'string' &&
    isFiniteNumber(x.timestamp) &&
    typeof x.operation === 'string' &&
    OPERATIONS.has(x.operation) &&
    typeof x.description === 'string'
  );
}

function parseStored(json: string): StoredHistory | null {
  let data: unknown;
  try {
    data = JSON.parse(json);
  } catch {
    return null;
  }
  if (!isRecord(data) || data.v !== 1 || typeof data.fingerprint !== 'string') return null;
  const { entries, patches, index } = data;
  if (!Array.isArray(entries) || !entries.every(isEntryMeta)) return null;
  if (!Array.isArray(patches) || patches.length !== Math.max(0, 2 * entries.length - 1) || !patches.every(isPatch)) return null;
  if (!isIndex(index) || index > entries.length) return null;
  return { v: 1, index, fingerprint: data.fingerprint, entries, patches };
}

/**
 * Apply a splice (forward: removed -> inserted; backward: inserted -> removed) after checking that
 * the items it replaces are there; null when they are not (a corrupt or foreign history).
 */
function applySplice<T, S>(items: readonly T[], splice: Splice<S>, forward: boolean, same: (item: T, stored: S) => boolean, make: (stored: S) => T): T[] | null {
  const [at, removed, inserted] = forward ? splice : [splice[0], splice[2], splice[1]];
  if (at + removed.length > items.length) return null;
  for (let k = 0; k < removed.length; k++) if (!same(items[at + k]!, removed[k]!)) return null;
  return items.slice(0, at).concat(inserted.map(make), items.slice(at + removed.length));
}

const sameAsTuple = (w: Word, t: WordTuple): boolean => w.text === t[0] && w.start === t[1] && w.end === t[2] && w.confidence === t[3];
const identity = (x: number): number => x;

/** Consecutive paragraphs of the given sizes, or null when they do not cover exactly wordCount words. */
function paragraphsOfSizes(sizes: readonly number[], wordCount: number): Pick<Paragraph, 'wordIndices'>[] | null {
  const out: Pick<Paragraph, 'wordIndices'>[] = [];
  let next = 0;
  for (const size of sizes) {
    if (size <= 0) return null;
    const wordIndices = new Array<number>(size);
    for (let k = 0; k < size; k++) wordIndices[k] = next + k;
    out.push({ wordIndices });
    next += size;
  }
  return next === wordCount ? out : null;
}

function stepFillers(fillerWords: readonly number[], splice: Splice<number>, forward: boolean): number[] | null {
  const gaps = applySplice(fillerGaps(fillerWords), splice, forward, sameNumber, identity);
  return gaps && fillersFromGaps(gaps);
}

/** The neighbouring state of `state` through a patch (read forward or backward), or null when it does not fit. */
function stepState(state: TranscriptContent, patch: StatePatch, forward: boolean): TranscriptContent | null {
  if (!patch.w && !patch.p && !patch.f) return state;
  const words = patch.w ? applySplice(state.words, patch.w, forward, sameAsTuple, fromTuple) : state.words;
  const fillerWords = patch.f ? stepFillers(state.fillerWords, patch.f, forward) : state.fillerWords;
  if (!words || !fillerWords || fillerWords.some((f) => f < 0 || f >= words.length)) return null;
  if (!patch.w && !patch.p) return { words: state.words, paragraphs: state.paragraphs, fillerWords };
  const sizes = patch.p ? applySplice(paragraphSizes(state), patch.p, forward, sameNumber, identity) : paragraphSizes(state);
  const paragraphs = sizes && paragraphsOfSizes(sizes, words.length);
  if (!paragraphs) return null;
  // paragraph times, groupNumber and word numbering as the server computes them
  return { ...attachParagraphs(words, paragraphs), fillerWords };
}

/**
 * Rebuild a history stored by serializeHistory, anchored at `current` (the transcript the server
 * holds now). Null when the JSON is not a stored history, or when `current` is not the transcript
 * it was stored with (it changed elsewhere, e.g. a processing job or another tab, and the history
 * no longer applies).
 */
export function deserializeHistory(json: string, current: TranscriptContent): History | null {
  const stored = parseStored(json);
  if (!stored || stored.fingerprint !== contentFingerprint(current)) return null;
  const count = stored.entries.length;
  if (count === 0) return { entries: [], index: 0 };
  const states: TranscriptContent[] = new Array<TranscriptContent>(2 * count);
  const anchor = anchorOf(stored.index);
  states[anchor] = current;
  for (let k = anchor + 1; k < states.length; k++) {
    const next = stepState(states[k - 1]!, stored.patches[k - 1]!, true);
    if (!next) return null;
    states[k] = next;
  }
  for (let k = anchor - 1; k >= 0; k--) {
    const previous = stepState(states[k + 1]!, stored.patches[k]!, false);
    if (!previous) return null;
    states[k] = previous;
  }
  const entries = stored.entries.map(({ id, timestamp, operation, description, marks, version }, k): HistoryEntry => ({
    id,
    timestamp,
    operation,
    description,
    beforeState: states[2 * k]!,
    afterState: states[2 * k + 1]!,
    ...(marks ? { marks } : {}),
    ...(version ? { version } : {}),
  }));
  return { entries, index: stored.index };
}
