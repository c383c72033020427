import { useEffect, useId, useMemo, useReducer, useState } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  UNKNOWN_USER_FILTER,
  VIDEO_SORTS,
  VIDEO_STATUS_FILTERS,
  type AnalyticsVideoRow,
  type BulkDeletionPreview,
  type DeletionPreview,
  type VideoSort,
  type VideoStatusFilter,
} from '@wordcut/contracts';
import { describeError, toast } from '@wordcut/ui';
import { ANALYTICS_KEYS, bulkDelete, deleteVideo, fetchBulkPreview, fetchDeletionPreview, fetchVideos } from './api';
import { BulkDeleteDialog, SingleDeleteDialog } from './DeleteDialogs';
import { formatDate, formatDuration, formatFileSize, formatUser, plural, STATUS_LABELS } from './format';
import { BulkBar, ListTable, PageSizeField, Pager } from './ListParts';
import { INITIAL_VIDEO_LIST, isFiltered, toggleSelected, videoListQuery, videoListReducer } from './listState';
import { useDebounced } from './useDebounced';

/** The search waits this long after the last key press. */
export const SEARCH_DEBOUNCE_MS = 300;

const SORT_LABELS: Record<VideoSort, string> = {
  newest: 'Newest first',
  oldest: 'Oldest first',
  'name-asc': 'Name A–Z',
  'name-desc': 'Name Z–A',
  'size-desc': 'Largest first',
  'size-asc': 'Smallest first',
};
const STATUS_FILTER_LABELS: Record<VideoStatusFilter, string> = { all: 'All statuses', uploaded: 'Uploaded', processing: 'Processing', completed: 'Completed', failed: 'Failed' };

/** Every video: filters, sort, page size, pagination, selection with a bulk bar, and deletion with a preview. */
export function VideoManagement() {
  const id = useId();
  const queryClient = useQueryClient();
  const [list, dispatch] = useReducer(videoListReducer, INITIAL_VIDEO_LIST);
  const [searchText, setSearchText] = useState('');
  const search = useDebounced(searchText, SEARCH_DEBOUNCE_MS);
  useEffect(() => dispatch({ type: 'search', value: search }), [search]);
  const query = videoListQuery(list);
  const videos = useQuery({ queryKey: ANALYTICS_KEYS.videos(query), queryFn: () => fetchVideos(query), placeholderData: keepPreviousData });
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const rows = useMemo(() => videos.data?.videos ?? [], [videos.data]);
  const pageIds = useMemo(() => rows.map((r) => r.id), [rows]);

  const [single, setSingle] = useState<DeletionPreview | null>(null);
  const [bulk, setBulk] = useState<BulkDeletionPreview | null>(null);
  const afterDelete = (ids: readonly string[]) => {
    setSelected((s) => new Set([...s].filter((x) => !ids.includes(x))));
    void queryClient.invalidateQueries({ queryKey: ANALYTICS_KEYS.allVideos });
  };
  const singlePreview = useMutation({
    mutationFn: fetchDeletionPreview,
    onSuccess: setSingle,
    onError: (err) => toast({ title: 'Error', description: describeError(err), variant: 'destructive' }),
  });
  const singleDelete = useMutation({
    mutationFn: deleteVideo,
    onSuccess: (result) => {
      setSingle(null);
      afterDelete(result.deleted);
      toast({ title: 'Video deleted', description: 'The video and everything stored with it are gone.' });
    },
  });
  const bulkPreview = useMutation({
    mutationFn: fetchBulkPreview,
    onSuccess: setBulk,
    onError: (err) => toast({ title: 'Error', description: describeError(err), variant: 'destructive' }),
  });
  const bulkRemove = useMutation({
    mutationFn: bulkDelete,
    onSuccess: (result) => {
      setBulk(null);
      afterDelete(result.deleted);
      toast({ title: 'Videos deleted', description: result.message });
    },
  });

  const pagination = videos.data?.pagination;

  return (
    <section className="wc-card wc-an-section" aria-labelledby={`${id}-title`} data-testid="section-videos">
      <div className="wc-an-section__head">
        <h2 id={`${id}-title`} className="wc-an-section__title">
          Video Management
        </h2>
        {pagination ? <p className="wc-muted wc-an-count">{pagination.total.toLocaleString('en-US')} videos</p> : null}
      </div>

      <div className="wc-an-filters" role="search" aria-label="Filter videos">
        <div className="wc-field wc-an-filters__search">
          <label htmlFor={`${id}-search`}>Search</label>
          <input id={`${id}-search`} type="text" placeholder="Name, title or id" value={searchText} onChange={(e) => setSearchText(e.currentTarget.value)} />
        </div>
        <div className="wc-field">
          <label htmlFor={`${id}-user`}>User</label>
          <select id={`${id}-user`} className="wc-an-select" value={list.userId} onChange={(e) => dispatch({ type: 'user', value: e.currentTarget.value })}>
            <option value="all">All users</option>
            <option value={UNKNOWN_USER_FILTER}>Unknown</option>
            {(videos.data?.users ?? []).map((u) => (
              <option key={u} value={u}>
                {u}
              </option>
            ))}
          </select>
        </div>
        <div className="wc-field">
          <label htmlFor={`${id}-status`}>Status</label>
          <select id={`${id}-status`} className="wc-an-select" value={list.status} onChange={(e) => dispatch({ type: 'status', value: e.currentTarget.value as VideoStatusFilter })}>
            {VIDEO_STATUS_FILTERS.map((s) => (
              <option key={s} value={s}>
                {STATUS_FILTER_LABELS[s]}
              </option>
            ))}
          </select>
        </div>
        <div className="wc-field">
          <label htmlFor={`${id}-sort`}>Sort by</label>
          <select id={`${id}-sort`} className="wc-an-select" value={list.sortBy} onChange={(e) => dispatch({ type: 'sort', value: e.currentTarget.value as VideoSort })}>
            {VIDEO_SORTS.map((s) => (
              <option key={s} value={s}>
                {SORT_LABELS[s]}
              </option>
            ))}
          </select>
        </div>
        <PageSizeField id={`${id}-limit`} value={list.limit} onChange={(value) => dispatch({ type: 'limit', value })} />
      </div>

      {selected.size > 0 ? (
        <BulkBar label="Bulk actions" count={selected.size} pending={bulkPreview.isPending} onClear={() => setSelected(new Set())} onDelete={() => bulkPreview.mutate([...selected])} />
      ) : null}

      <ListTable
        caption="Videos"
        selectAllLabel="Select all videos on this page"
        headings={['Name', 'User', 'Created', 'Duration', 'Size', 'Status', 'Contents', <span className="wc-an-sr">Actions</span>]}
        query={videos}
        emptyText={isFiltered(list) ? 'No videos match your filters' : 'No videos found'}
        selected={selected}
        pageIds={pageIds}
        onSelected={setSelected}
      >
        {rows.map((row) => (
          <VideoRow
            key={row.id}
            row={row}
            selected={selected.has(row.id)}
            onToggle={() => setSelected((s) => toggleSelected(s, row.id))}
            deleting={singlePreview.isPending && singlePreview.variables === row.id}
            onDelete={() => singlePreview.mutate(row.id)}
          />
        ))}
      </ListTable>

      {pagination ? <Pager label="Video pages" pagination={pagination} page={list.page} onPage={(value) => dispatch({ type: 'page', value })} /> : null}

      {single ? (
        <SingleDeleteDialog
          preview={single}
          pending={singleDelete.isPending}
          error={singleDelete.error}
          onConfirm={() => singleDelete.mutate(single.video.id)}
          onClose={() => {
            setSingle(null);
            singleDelete.reset();
          }}
        />
      ) : null}
      {bulk ? (
        <BulkDeleteDialog
          preview={bulk}
          pending={bulkRemove.isPending}
          error={bulkRemove.error}
          onConfirm={() => bulkRemove.mutate(bulk.videos.map((v) => v.video.id))}
          onClose={() => {
            setBulk(null);
            bulkRemove.reset();
          }}
        />
      ) : null}
    </section>
  );
}

interface RowProps {
  row: AnalyticsVideoRow;
  selected: boolean;
  onToggle: () => void;
  deleting: boolean;
  onDelete: () => void;
}

function VideoRow({ row, selected, onToggle, deleting, onDelete }: RowProps) {
  return (
    <tr aria-selected={selected}>
      <td className="wc-an-table__check">
        <input type="checkbox" aria-label={`Select ${row.originalName}`} checked={selected} onChange={onToggle} />
      </td>
      <th scope="row" className="wc-an-table__name">
        <span className="wc-an-name">{row.originalName}</span>
        {row.title && row.title !== row.originalName.replace(/\.[^.]+$/, '') ? <span className="wc-an-subtle">{row.title}</span> : null}
      </th>
      <td className="wc-an-table__user" title={formatUser(row.userId)}>
        {formatUser(row.userId)}
      </td>
      <td>{formatDate(row.createdAt)}</td>
      <td className="wc-an-num">{formatDuration(row.duration)}</td>
      <td className="wc-an-num">{formatFileSize(row.fileSize)}</td>
      <td>
        <span className={`wc-an-badge wc-an-badge--${row.status}`}>{STATUS_LABELS[row.status] ?? row.status}</span>
      </td>
      <td>
        <ul className="wc-an-contents">
          <li>{plural(row.transcriptCount, 'transcript')}</li>
          <li>{plural(row.clipCount, 'clip')}</li>
          <li>{plural(row.keyMomentCount, 'key moment')}</li>
        </ul>
      </td>
      <td>
        <button type="button" className="wc-button wc-button--small wc-an-icon-button" aria-label={`Delete ${row.originalName}`} title="Delete" disabled={deleting} onClick={onDelete}>
          <svg aria-hidden="true" width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
            <path d="M3 6h18M8 6V4h8v2M19 6l-1 14H6L5 6M10 11v6M14 11v6" />
          </svg>
        </button>
      </td>
    </tr>
  );
}
