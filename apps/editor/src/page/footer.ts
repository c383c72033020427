import { formatDuration } from '../shared/format';

/** Pure parts of the editor footer: the zoom cycle, the VTT status, duration and last-saved texts. */

export const ZOOM_LEVELS_START = 100;
export const ZOOM_RESET_AT = 400;

/** The zoom level after one click: doubles, and returns to 100% once it reached 400% or more. */
export function nextZoomLevel(percent: number): number {
  if (!Number.isFinite(percent) || percent <= 0 || percent >= ZOOM_RESET_AT) return ZOOM_LEVELS_START;
  return Math.min(ZOOM_RESET_AT, percent * 2);
}

/** The method the VTT status is 'Ready' for; the same value as VTT_METHOD_UPLOAD of @wordcut/contracts. */
export const READY_VTT_METHOD = 'VTT Upload';

/** 'Ready' when the configured method is 'VTT Upload', otherwise 'Configuring'. */
export function vttStatusLabel(method: string | null | undefined): 'Ready' | 'Configuring' {
  return method === READY_VTT_METHOD ? 'Ready' : 'Configuring';
}

export function durationLabel(seconds: number | null | undefined): string {
  return seconds == null ? 'N/A' : formatDuration(seconds);
}

/** 'Last saved' text: a locale time for a parseable date, 'Never' without one, the raw value otherwise. */
export function lastSavedLabel(iso: string | null | undefined, locale?: string): string {
  if (!iso) return 'Never';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleTimeString(locale, { hour: '2-digit', minute: '2-digit' });
}
