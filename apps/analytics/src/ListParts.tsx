import { useEffect, useRef, type ReactNode } from 'react';
import { ANALYTICS_PAGE_SIZES, type Pagination } from '@wordcut/contracts';
import { describeError } from '@wordcut/ui';
import { pagerState, rangeLabel, selectAllState, toggleAll } from './listState';

/**
 * The pieces every dashboard list shares (videos, error logs, failed webhooks): skeleton and
 * error rows, the page-size field, the select-all box, the bulk bar and the pager.
 */

/** The loading state shows this many skeleton rows. */
export const SKELETON_ROWS = 5;

export function SkeletonRows({ columns }: { columns: number }) {
  return (
    <>
      {Array.from({ length: SKELETON_ROWS }, (_, i) => (
        <tr key={i} className="wc-an-skeleton" data-testid="skeleton-row" aria-hidden="true">
          {Array.from({ length: columns }, (_, c) => (
            <td key={c}>
              <span className="wc-an-skeleton__bar" />
            </td>
          ))}
        </tr>
      ))}
    </>
  );
}

/** A list that failed to load: 'Error Loading Analytics', the reason, and Retry. */
export function ErrorRow({ columns, error, onRetry }: { columns: number; error: unknown; onRetry: () => void }) {
  return (
    <tr>
      <td colSpan={columns}>
        <div className="wc-an-state" role="alert">
          <p className="wc-an-state__title">Error Loading Analytics</p>
          <p className="wc-muted">{describeError(error)}</p>
          <button type="button" className="wc-button" onClick={onRetry}>
            Retry
          </button>
        </div>
      </td>
    </tr>
  );
}

/** A list without rows: its empty-state text. */
export function EmptyRow({ columns, text }: { columns: number; text: string }) {
  return (
    <tr>
      <td colSpan={columns}>
        <p className="wc-an-state wc-an-state__title">{text}</p>
      </td>
    </tr>
  );
}

/** Per page: 10, 20, 50 or 100. */
export function PageSizeField({ id, value, onChange }: { id: string; value: number; onChange: (limit: number) => void }) {
  return (
    <div className="wc-field">
      <label htmlFor={id}>Per page</label>
      <select id={id} className="wc-an-select" value={value} onChange={(e) => onChange(Number(e.currentTarget.value))}>
        {ANALYTICS_PAGE_SIZES.map((n) => (
          <option key={n} value={n}>
            {n}
          </option>
        ))}
      </select>
    </div>
  );
}

/** The header checkbox: checked, unchecked or mixed (indeterminate). */
export function SelectAllBox({ label, state, disabled, onToggle }: { label: string; state: boolean | 'mixed'; disabled: boolean; onToggle: () => void }) {
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = state === 'mixed';
  }, [state]);
  return <input ref={ref} type="checkbox" aria-label={label} checked={state === true} disabled={disabled} onChange={onToggle} />;
}

interface BulkBarProps {
  /** the region's name ('Bulk actions', 'Error log bulk actions') */
  label: string;
  count: number;
  pending: boolean;
  onClear: () => void;
  onDelete: () => void;
}

/** Shown while rows are selected: the count, Clear selection, Delete selected. */
export function BulkBar({ label, count, pending, onClear, onDelete }: BulkBarProps) {
  return (
    <div className="wc-an-bulkbar" role="region" aria-label={label}>
      <span aria-live="polite">{count} selected</span>
      <button type="button" className="wc-button wc-button--small" onClick={onClear}>
        Clear selection
      </button>
      <button type="button" className="wc-button wc-button--small wc-an-button--danger" disabled={pending} onClick={onDelete}>
        {pending ? 'Loading...' : 'Delete selected'}
      </button>
    </div>
  );
}

/** "21–40 of 45", Prev (off on page 1), "Page 2 of 3", Next (off on the last page). */
export function Pager({ label, pagination, page, onPage }: { label: string; pagination: Pagination; page: number; onPage: (page: number) => void }) {
  const pager = pagerState(page, pagination.totalPages);
  return (
    <nav className="wc-an-pager" aria-label={label}>
      <span className="wc-muted">{rangeLabel(pagination.page, pagination.limit, pagination.total)}</span>
      <div className="wc-an-pager__buttons">
        <button type="button" className="wc-button wc-button--small" disabled={!pager.canPrev} onClick={() => onPage(page - 1)}>
          Prev
        </button>
        <span aria-live="polite">
          Page {pagination.page} of {Math.max(1, pagination.totalPages)}
        </span>
        <button type="button" className="wc-button wc-button--small" disabled={!pager.canNext} onClick={() => onPage(page + 1)}>
          Next
        </button>
      </div>
    </nav>
  );
}

interface ListQuery {
  isPending: boolean;
  isError: boolean;
  isFetching: boolean;
  error: unknown;
  refetch: () => unknown;
}

/**
 * A list's table: the select-all box and the column headings, then 5 skeleton rows while loading,
 * the error row with Retry, the empty text, or the rows.
 */
export function ListTable(props: {
  caption: string;
  /** the select-all box's accessible name */
  selectAllLabel: string;
  headings: ReactNode[];
  query: ListQuery;
  emptyText: string;
  selected: ReadonlySet<string>;
  pageIds: readonly string[];
  onSelected: (update: (s: ReadonlySet<string>) => Set<string>) => void;
  describedBy?: string;
  children: ReactNode;
}) {
  const { query, selected, pageIds } = props;
  const columns = props.headings.length + 1;
  return (
    <div className="wc-an-table-wrap">
      <table className="wc-an-table" aria-busy={query.isFetching || undefined} aria-describedby={props.describedBy}>
        <caption className="wc-an-sr">{props.caption}</caption>
        <thead>
          <tr>
            <th scope="col" className="wc-an-table__check">
              <SelectAllBox label={props.selectAllLabel} state={selectAllState(selected, pageIds)} disabled={pageIds.length === 0} onToggle={() => props.onSelected((s) => toggleAll(s, pageIds))} />
            </th>
            {props.headings.map((h, i) => (
              <th key={i} scope="col">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {query.isPending ? (
            <SkeletonRows columns={columns} />
          ) : query.isError ? (
            <ErrorRow columns={columns} error={query.error} onRetry={() => void query.refetch()} />
          ) : pageIds.length === 0 ? (
            <EmptyRow columns={columns} text={props.emptyText} />
          ) : (
            props.children
          )}
        </tbody>
      </table>
    </div>
  );
}
