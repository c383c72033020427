import {
  bulkDeleteConfirmed,
  clampedPage,
  errorLogListQuery,
  errorLogListReducer,
  INITIAL_ERROR_LOG_LIST,
  INITIAL_WEBHOOK_LIST,
  toggleExpanded,
  webhookListQuery,
  webhookListReducer,
  INITIAL_VIDEO_LIST,
  isFiltered,
  pagerState,
  rangeLabel,
  selectAllState,
  toggleAll,
  toggleSelected,
  videoListQuery,
  videoListReducer,
} from './listState';

describe('video list state', () => {
  const onPage3 = { ...INITIAL_VIDEO_LIST, page: 3 };

  it('starts newest first, 20 a page, on page 1', () => {
    expect(INITIAL_VIDEO_LIST).toEqual({ search: '', userId: 'all', status: 'all', sortBy: 'newest', page: 1, limit: 20 });
  });

  it('returns to page 1 on any change of filter, sort or page size', () => {
    expect(videoListReducer(onPage3, { type: 'search', value: 'talk' })).toMatchObject({ search: 'talk', page: 1 });
    expect(videoListReducer(onPage3, { type: 'user', value: 'unknown' })).toMatchObject({ userId: 'unknown', page: 1 });
    expect(videoListReducer(onPage3, { type: 'status', value: 'failed' })).toMatchObject({ status: 'failed', page: 1 });
    expect(videoListReducer(onPage3, { type: 'sort', value: 'size-desc' })).toMatchObject({ sortBy: 'size-desc', page: 1 });
    expect(videoListReducer(onPage3, { type: 'limit', value: 50 })).toMatchObject({ limit: 50, page: 1 });
  });

  it('keeps the filters when paging, and the same search keeps the page', () => {
    const filtered = { ...onPage3, status: 'completed' as const };
    expect(videoListReducer(filtered, { type: 'page', value: 4 })).toEqual({ ...filtered, page: 4 });
    expect(videoListReducer(filtered, { type: 'page', value: 0 }).page).toBe(1);
    expect(videoListReducer(filtered, { type: 'search', value: '' })).toBe(filtered);
  });

  it('builds the query of the list call', () => {
    expect(videoListQuery(INITIAL_VIDEO_LIST)).toBe('sortBy=newest&page=1&limit=20');
    expect(videoListQuery({ search: ' my talk ', userId: 'u1', status: 'failed', sortBy: 'name-asc', page: 2, limit: 10 })).toBe(
      'search=my+talk&userId=u1&status=failed&sortBy=name-asc&page=2&limit=10',
    );
    expect(isFiltered(INITIAL_VIDEO_LIST)).toBe(false);
    expect(isFiltered({ ...INITIAL_VIDEO_LIST, userId: 'unknown' })).toBe(true);
  });

  it('turns Prev off on page 1 and Next on the last page', () => {
    expect(pagerState(1, 3)).toEqual({ canPrev: false, canNext: true });
    expect(pagerState(3, 3)).toEqual({ canPrev: true, canNext: false });
    expect(pagerState(1, 0)).toEqual({ canPrev: false, canNext: false });
    expect(rangeLabel(2, 20, 45)).toBe('21–40 of 45');
    expect(rangeLabel(3, 20, 45)).toBe('41–45 of 45');
    expect(rangeLabel(1, 20, 0)).toBe('0 of 0');
  });

  it('selects rows one by one and all of a page at once', () => {
    const one = toggleSelected(new Set(), 'a');
    expect([...one]).toEqual(['a']);
    expect(selectAllState(one, ['a', 'b'])).toBe('mixed');
    const all = toggleAll(one, ['a', 'b']);
    expect([...all].sort()).toEqual(['a', 'b']);
    expect(selectAllState(all, ['a', 'b'])).toBe(true);
    expect([...toggleAll(all, ['a', 'b'])]).toEqual([]);
    expect([...toggleSelected(all, 'a')]).toEqual(['b']);
    expect(selectAllState(new Set(), [])).toBe(false);
  });

  it('confirms a bulk deletion only with exactly DELETE', () => {
    expect(bulkDeleteConfirmed('DELETE')).toBe(true);
    expect(bulkDeleteConfirmed('delete')).toBe(false);
    expect(bulkDeleteConfirmed('DELETE ')).toBe(false);
    expect(bulkDeleteConfirmed('')).toBe(false);
  });
});

describe('error log and failed webhook list state', () => {
  it('starts on page 1 with 20 a page and every severity', () => {
    expect(INITIAL_ERROR_LOG_LIST).toEqual({ severity: 'all', page: 1, limit: 20 });
    expect(errorLogListQuery(INITIAL_ERROR_LOG_LIST)).toBe('severity=all&page=1&limit=20');
    expect(INITIAL_WEBHOOK_LIST).toEqual({ page: 1, limit: 20 });
    expect(webhookListQuery(INITIAL_WEBHOOK_LIST)).toBe('page=1&limit=20');
  });

  it('returns to page 1 on a severity or page-size change, and keeps the severity when paging', () => {
    const onPage3 = { ...INITIAL_ERROR_LOG_LIST, page: 3 };
    expect(errorLogListReducer(onPage3, { type: 'severity', value: 'warn' })).toEqual({ severity: 'warn', page: 1, limit: 20 });
    expect(errorLogListReducer(onPage3, { type: 'limit', value: 100 })).toEqual({ severity: 'all', page: 1, limit: 100 });
    const warn = { severity: 'warn' as const, page: 1, limit: 50 };
    expect(errorLogListQuery(errorLogListReducer(warn, { type: 'page', value: 2 }))).toBe('severity=warn&page=2&limit=50');
    expect(webhookListReducer({ page: 4, limit: 20 }, { type: 'limit', value: 10 })).toEqual({ page: 1, limit: 10 });
    expect(webhookListReducer({ page: 1, limit: 20 }, { type: 'page', value: 0 })).toEqual({ page: 1, limit: 20 });
  });

  it('expands one row at a time', () => {
    expect(toggleExpanded(null, 'a')).toBe('a');
    expect(toggleExpanded('a', 'b')).toBe('b');
    expect(toggleExpanded('b', 'b')).toBeNull();
  });

  it('goes back to the last page when the page went past it', () => {
    expect(clampedPage(3, 2)).toBe(2);
    expect(clampedPage(2, 2)).toBeNull();
    expect(clampedPage(1, 0)).toBeNull();
  });
});
