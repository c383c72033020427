import { ANALYTICS_DEFAULT_PAGE_SIZE, ERROR_SEVERITIES, type ErrorSeverity, type VideoSort, type VideoStatusFilter } from '@wordcut/contracts';

/** The video list's filters, sort and paging (what the URL query of GET /api/analytics/videos says). */
export interface VideoListState {
  search: string;
  userId: string;
  status: VideoStatusFilter;
  sortBy: VideoSort;
  page: number;
  limit: number;
}

export const INITIAL_VIDEO_LIST: VideoListState = { search: '', userId: 'all', status: 'all', sortBy: 'newest', page: 1, limit: ANALYTICS_DEFAULT_PAGE_SIZE };

export type VideoListAction =
  | { type: 'search'; value: string }
  | { type: 'user'; value: string }
  | { type: 'status'; value: VideoStatusFilter }
  | { type: 'sort'; value: VideoSort }
  | { type: 'limit'; value: number }
  | { type: 'page'; value: number };

/** Any change of filter, sort or page size returns to page 1; paging keeps the filters. */
export function videoListReducer(state: VideoListState, action: VideoListAction): VideoListState {
  switch (action.type) {
    case 'search':
      return action.value === state.search ? state : { ...state, search: action.value, page: 1 };
    case 'user':
      return { ...state, userId: action.value, page: 1 };
    case 'status':
      return { ...state, status: action.value, page: 1 };
    case 'sort':
      return { ...state, sortBy: action.value, page: 1 };
    case 'limit':
    case 'page':
      return pagingReducer(state, action);
  }
}

/** Paging shared by every list: a new page size returns to page 1; a page is at least 1. */
export type PagingAction = { type: 'limit'; value: number } | { type: 'page'; value: number };

export function pagingReducer<S extends { page: number; limit: number }>(state: S, action: PagingAction): S {
  if (action.type === 'limit') return { ...state, limit: action.value, page: 1 };
  return { ...state, page: Math.max(1, Math.floor(action.value)) };
}

/** The query string of the list call (defaults left out). */
export function videoListQuery(state: VideoListState): string {
  const params = new URLSearchParams();
  if (state.search.trim()) params.set('search', state.search.trim());
  if (state.userId !== 'all') params.set('userId', state.userId);
  if (state.status !== 'all') params.set('status', state.status);
  params.set('sortBy', state.sortBy);
  params.set('page', String(state.page));
  params.set('limit', String(state.limit));
  return params.toString();
}

/** Whether any filter narrows the list (the empty state then says so). */
export const isFiltered = (state: VideoListState): boolean => state.search.trim() !== '' || state.userId !== 'all' || state.status !== 'all';

/** Prev is off on page 1, Next on the last page. */
export function pagerState(page: number, totalPages: number): { canPrev: boolean; canNext: boolean } {
  return { canPrev: page > 1, canNext: page < Math.max(1, totalPages) };
}

/** The rows shown on the page, "1–20 of 45". */
export function rangeLabel(page: number, limit: number, total: number): string {
  if (total === 0) return '0 of 0';
  const first = (page - 1) * limit + 1;
  return `${first}–${Math.min(total, page * limit)} of ${total}`;
}

/** Selection of rows by id: toggling one, or all the page's at once. */
export function toggleSelected(selected: ReadonlySet<string>, id: string): Set<string> {
  const next = new Set(selected);
  if (next.has(id)) next.delete(id);
  else next.add(id);
  return next;
}

/** Select-all of a page: all when some are unselected, none when all are. */
export function toggleAll(selected: ReadonlySet<string>, pageIds: readonly string[]): Set<string> {
  const allOn = pageIds.length > 0 && pageIds.every((id) => selected.has(id));
  const next = new Set(selected);
  for (const id of pageIds) {
    if (allOn) next.delete(id);
    else next.add(id);
  }
  return next;
}

/** The select-all box: checked, unchecked or mixed. */
export function selectAllState(selected: ReadonlySet<string>, pageIds: readonly string[]): boolean | 'mixed' {
  const on = pageIds.filter((id) => selected.has(id)).length;
  if (on === 0) return false;
  return on === pageIds.length ? true : 'mixed';
}

/** The bulk deletion's confirmation is exactly DELETE (case-sensitive). */
export const BULK_DELETE_WORD = 'DELETE';
export const bulkDeleteConfirmed = (typed: string): boolean => typed === BULK_DELETE_WORD;

// ---------------------------------------------------------------------------------------------
// Error logs and failed webhooks: the same pattern (a filter or page-size change returns to page 1)

export const ERROR_SEVERITY_FILTERS = ['all', ...ERROR_SEVERITIES] as const;
export type ErrorSeverityFilter = 'all' | ErrorSeverity;

export interface ErrorLogListState {
  severity: ErrorSeverityFilter;
  page: number;
  limit: number;
}
export const INITIAL_ERROR_LOG_LIST: ErrorLogListState = { severity: 'all', page: 1, limit: ANALYTICS_DEFAULT_PAGE_SIZE };
export type ErrorLogListAction = { type: 'severity'; value: ErrorSeverityFilter } | PagingAction;

export function errorLogListReducer(state: ErrorLogListState, action: ErrorLogListAction): ErrorLogListState {
  if (action.type === 'severity') return { ...state, severity: action.value, page: 1 };
  return pagingReducer(state, action);
}

/** The query of GET /api/analytics/errors: severity, page, limit. */
export function errorLogListQuery(state: ErrorLogListState): string {
  return new URLSearchParams({ severity: state.severity, page: String(state.page), limit: String(state.limit) }).toString();
}

export interface WebhookListState {
  page: number;
  limit: number;
}
export const INITIAL_WEBHOOK_LIST: WebhookListState = { page: 1, limit: ANALYTICS_DEFAULT_PAGE_SIZE };
export const webhookListReducer = (state: WebhookListState, action: PagingAction): WebhookListState => pagingReducer(state, action);

/** The query of GET /api/analytics/webhooks/failed: page, limit. */
export function webhookListQuery(state: WebhookListState): string {
  return new URLSearchParams({ page: String(state.page), limit: String(state.limit) }).toString();
}

/** One expanded row at a time: the same row again collapses it. */
export const toggleExpanded = (expanded: string | null, id: string): string | null => (expanded === id ? null : id);

/** A page beyond the last (after deleting its rows) goes back to the last one; null when the page is fine. */
export function clampedPage(page: number, totalPages: number): number | null {
  return totalPages > 0 && page > totalPages ? totalPages : null;
}
