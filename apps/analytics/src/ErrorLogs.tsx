import { useEffect, useId, useMemo, useReducer, useState } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ErrorLogRow } from '@wordcut/contracts';
import { toast } from '@wordcut/ui';
import { ANALYTICS_KEYS, bulkDeleteErrorLogs, fetchErrorLogs } from './api';
import { BulkRecordsDeleteDialog } from './DeleteDialogs';
import { formatCount, formatDate, formatRelativeTime, messagePreview, plural, SEVERITY_LABELS } from './format';
import { BulkBar, ListTable, PageSizeField, Pager } from './ListParts';
import {
  clampedPage,
  ERROR_SEVERITY_FILTERS,
  errorLogListQuery,
  errorLogListReducer,
  INITIAL_ERROR_LOG_LIST,
  toggleSelected,
  type ErrorSeverityFilter,
} from './listState';

const SEVERITY_FILTER_LABELS: Record<ErrorSeverityFilter, string> = { all: 'All severities', error: 'Error', warn: 'Warning', fatal: 'Fatal' };
const SEVERITY_TONES: Record<string, string> = { error: 'bad', warn: 'warn', fatal: 'fatal' };

/** Every service's error entries: severity filter, page size, pagination, selection with a bulk bar and bulk delete. */
export function ErrorLogs() {
  const id = useId();
  const queryClient = useQueryClient();
  const [list, dispatch] = useReducer(errorLogListReducer, INITIAL_ERROR_LOG_LIST);
  const query = errorLogListQuery(list);
  const logs = useQuery({ queryKey: ANALYTICS_KEYS.errors(query), queryFn: () => fetchErrorLogs(query), placeholderData: keepPreviousData });
  const rows = useMemo(() => logs.data?.errors ?? [], [logs.data]);
  const pageIds = useMemo(() => rows.map((r) => r.id), [rows]);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [confirming, setConfirming] = useState(false);
  const pagination = logs.data?.pagination;

  useEffect(() => {
    const page = pagination ? clampedPage(list.page, pagination.totalPages) : null;
    if (page !== null) dispatch({ type: 'page', value: page });
  }, [list.page, pagination]);

  const remove = useMutation({
    mutationFn: bulkDeleteErrorLogs,
    onSuccess: (result, ids) => {
      setConfirming(false);
      setSelected((s) => new Set([...s].filter((x) => !ids.includes(x))));
      void queryClient.invalidateQueries({ queryKey: ANALYTICS_KEYS.allErrors });
      toast({ title: 'Error logs deleted', description: `${plural(result.deleted, 'error log')} deleted.` });
    },
  });

  return (
    <section className="wc-card wc-an-section" aria-labelledby={`${id}-title`} data-testid="section-error-logs">
      <div className="wc-an-section__head">
        <h2 id={`${id}-title`} className="wc-an-section__title">
          Error Logs
        </h2>
        {pagination ? <p className="wc-muted wc-an-count">{plural(pagination.total, 'entry', 'entries')}</p> : null}
      </div>

      <div className="wc-an-filters wc-an-filters--compact" role="group" aria-label="Filter error logs">
        <div className="wc-field">
          <label htmlFor={`${id}-severity`}>Severity</label>
          <select
            id={`${id}-severity`}
            className="wc-an-select"
            value={list.severity}
            onChange={(e) => dispatch({ type: 'severity', value: e.currentTarget.value as ErrorSeverityFilter })}
          >
            {ERROR_SEVERITY_FILTERS.map((s) => (
              <option key={s} value={s}>
                {SEVERITY_FILTER_LABELS[s]}
              </option>
            ))}
          </select>
        </div>
        <PageSizeField id={`${id}-limit`} value={list.limit} onChange={(value) => dispatch({ type: 'limit', value })} />
      </div>

      {selected.size > 0 ? (
        <BulkBar label="Error log bulk actions" count={selected.size} pending={false} onClear={() => setSelected(new Set())} onDelete={() => setConfirming(true)} />
      ) : null}

      <ListTable
        caption="Error logs"
        selectAllLabel="Select all error logs on this page"
        headings={['Time', 'Severity', 'Service', 'Endpoint', 'Message']}
        query={logs}
        emptyText="No error logs found"
        selected={selected}
        pageIds={pageIds}
        onSelected={setSelected}
      >
        {rows.map((row) => (
          <ErrorLogItem key={row.id} row={row} selected={selected.has(row.id)} onToggle={() => setSelected((s) => toggleSelected(s, row.id))} />
        ))}
      </ListTable>

      {pagination ? <Pager label="Error log pages" pagination={pagination} page={list.page} onPage={(value) => dispatch({ type: 'page', value })} /> : null}

      {confirming ? (
        <BulkRecordsDeleteDialog
          title={`Delete ${plural(selected.size, 'error log')}?`}
          description={`The ${formatCount(selected.size)} selected error log entries will be deleted.`}
          pending={remove.isPending}
          error={remove.error}
          onConfirm={() => remove.mutate([...selected])}
          onClose={() => {
            setConfirming(false);
            remove.reset();
          }}
        />
      ) : null}
    </section>
  );
}

function ErrorLogItem({ row, selected, onToggle }: { row: ErrorLogRow; selected: boolean; onToggle: () => void }) {
  const severity = SEVERITY_LABELS[row.severity] ?? row.severity;
  return (
    <tr aria-selected={selected} data-testid="error-log-row">
      <td className="wc-an-table__check">
        <input type="checkbox" aria-label={`Select ${severity.toLowerCase()} from ${row.service} at ${formatDate(row.createdAt)}`} checked={selected} onChange={onToggle} />
      </td>
      <td className="wc-an-nowrap">
        <time dateTime={row.createdAt}>{formatRelativeTime(row.createdAt)}</time>
        <span className="wc-an-subtle">{formatDate(row.createdAt)}</span>
      </td>
      <td>
        <span className={`wc-an-badge wc-an-badge--${SEVERITY_TONES[row.severity] ?? 'neutral'}`}>{severity}</span>
      </td>
      <td className="wc-an-code">{row.service}</td>
      <td className="wc-an-code wc-an-table__endpoint">{row.endpoint ?? 'N/A'}</td>
      <td className="wc-an-message">
        <Message text={row.message} />
      </td>
    </tr>
  );
}

/** A long message shows its start; the whole text opens on request. */
function Message({ text }: { text: string }) {
  const preview = messagePreview(text);
  if (preview === text) return <>{text}</>;
  return (
    <details>
      <summary>{preview}</summary>
      <p className="wc-an-message__full">{text}</p>
    </details>
  );
}
