/**
 * OpenTimelineIO's serialisation rules for the values the reader takes: every object names its
 * type and version in OTIO_SCHEMA ('Clip.2'); times are RationalTime.1 (a finite value at a
 * positive rate) and ranges TimeRange.1 (a start and a duration that is not negative).
 */
import { ReadError } from './read-timeline';

export type JsonObject = { readonly [key: string]: unknown };

export const fail = (message: string): never => {
  throw new ReadError('otio', message);
};

export function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function asObject(v: unknown, where: string): JsonObject {
  return isObject(v) ? v : fail(`${where} is not an object`);
}

export function asArray(v: unknown, where: string): readonly unknown[] {
  return Array.isArray(v) ? v : fail(`${where} is not a list`);
}

/** The OTIO_SCHEMA of `o`, which must be one of `allowed` ('Name.N'). */
export function schema(o: JsonObject, allowed: readonly string[], where: string): string {
  const s = o.OTIO_SCHEMA;
  if (typeof s !== 'string' || !/^[A-Za-z][A-Za-z0-9_]*\.\d+$/.test(s)) return fail(`${where} has no OTIO_SCHEMA of the form 'Name.N'`);
  if (!allowed.includes(s)) return fail(`${where} is ${s}, not ${allowed.join(' or ')}`);
  return s;
}

export function optionalString(o: JsonObject, key: string, where: string): string {
  const v = o[key];
  if (v === undefined || v === null) return '';
  return typeof v === 'string' ? v : fail(`${key} of ${where} is not text`);
}

export interface Time {
  value: number;
  rate: number;
}

export interface Range {
  start: Time;
  duration: Time;
}

export function rationalTime(v: unknown, where: string): Time {
  const o = asObject(v, where);
  schema(o, ['RationalTime.1'], where);
  const { value, rate } = o;
  if (typeof value !== 'number' || !Number.isFinite(value)) return fail(`the value of ${where} is not a finite number`);
  if (typeof rate !== 'number' || !Number.isFinite(rate) || rate <= 0) return fail(`the rate of ${where} is not a positive number`);
  return { value, rate };
}

export function timeRange(v: unknown, where: string): Range {
  const o = asObject(v, where);
  schema(o, ['TimeRange.1'], where);
  const range = { start: rationalTime(o.start_time, `start_time of ${where}`), duration: rationalTime(o.duration, `duration of ${where}`) };
  if (range.duration.value < 0) fail(`${where} has a negative duration`);
  return range;
}

export const optionalRange = (v: unknown, where: string): Range | null => (v === undefined || v === null ? null : timeRange(v, where));

/** A time in whole frames of `rate`; a time between frames breaks the cut points' exactness. */
export function framesAt(t: Time, rate: number, where: string): number {
  const v = t.rate === rate ? t.value : (t.value * rate) / t.rate;
  const f = Math.round(v);
  if (Math.abs(v - f) > 1e-6) fail(`${where} (${t.value} at ${t.rate}) is not a whole number of frames at ${rate}`);
  return f + 0;
}
