import { useEffect, useId, useMemo, useReducer, useState, type MouseEvent } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { FailedWebhookRow, WebhookRetryResult } from '@wordcut/contracts';
import { describeError, toast } from '@wordcut/ui';
import { ANALYTICS_KEYS, bulkDeleteWebhooks, fetchFailedWebhooks, retryWebhook } from './api';
import { BulkRecordsDeleteDialog } from './DeleteDialogs';
import { formatCount, formatDate, formatPayload, formatRelativeTime, formatUser, JOB_ID_CHARS, plural, shortId } from './format';
import { BulkBar, ListTable, PageSizeField, Pager } from './ListParts';
import { clampedPage, INITIAL_WEBHOOK_LIST, toggleExpanded, toggleSelected, webhookListQuery, webhookListReducer } from './listState';

const COLUMNS = 7;
export const UNKNOWN_ERROR = 'Unknown error';
export const TOKEN_NOTE = 'Token available for automatic retry';

/** The toast after a retry: applied, or 'Webhook Retry Failed' with the error. */
export function retryOutcome(result: WebhookRetryResult): { title: string; description: string; failed: boolean } {
  if (result.succeeded) return { title: 'Webhook retried', description: `Job ${shortId(result.jobId, JOB_ID_CHARS)} was applied.`, failed: false };
  return { title: 'Webhook Retry Failed', description: result.error || UNKNOWN_ERROR, failed: true };
}

/**
 * Provider events the export service could not apply: page size, pagination, selection with a
 * bulk bar and bulk delete, a Retry per row, and one row's details at a time: a click on the row, or
 * its job button (Enter or Space), expands it and collapses the one open before. The disclosure
 * state lives on that button (aria-expanded is not allowed on the row of a plain table).
 */
export function FailedWebhooks() {
  const id = useId();
  const queryClient = useQueryClient();
  const [list, dispatch] = useReducer(webhookListReducer, INITIAL_WEBHOOK_LIST);
  const query = webhookListQuery(list);
  const webhooks = useQuery({ queryKey: ANALYTICS_KEYS.webhooks(query), queryFn: () => fetchFailedWebhooks(query), placeholderData: keepPreviousData });
  const rows = useMemo(() => webhooks.data?.webhooks ?? [], [webhooks.data]);
  const pageIds = useMemo(() => rows.map((r) => r.jobId), [rows]);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [expanded, setExpanded] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const pagination = webhooks.data?.pagination;

  useEffect(() => {
    const page = pagination ? clampedPage(list.page, pagination.totalPages) : null;
    if (page !== null) dispatch({ type: 'page', value: page });
  }, [list.page, pagination]);

  const forget = (ids: readonly string[]) => {
    setSelected((s) => new Set([...s].filter((x) => !ids.includes(x))));
    setExpanded((e) => (e !== null && ids.includes(e) ? null : e));
  };
  const refetch = () => void queryClient.invalidateQueries({ queryKey: ANALYTICS_KEYS.allWebhooks });

  const retry = useMutation({
    mutationFn: retryWebhook,
    onSuccess: (result) => {
      const outcome = retryOutcome(result);
      toast({ title: outcome.title, description: outcome.description, variant: outcome.failed ? 'destructive' : 'default' });
      if (!outcome.failed) forget([result.jobId]);
    },
    onError: (err) => toast({ title: 'Webhook Retry Failed', description: describeError(err), variant: 'destructive' }),
    onSettled: refetch,
  });
  const remove = useMutation({
    mutationFn: bulkDeleteWebhooks,
    onSuccess: (result, ids) => {
      setConfirming(false);
      forget(ids);
      refetch();
      toast({ title: 'Failed webhooks deleted', description: `${plural(result.deleted, 'failed webhook')} deleted.` });
    },
  });

  return (
    <section className="wc-card wc-an-section" aria-labelledby={`${id}-title`} data-testid="section-failed-webhooks">
      <div className="wc-an-section__head">
        <h2 id={`${id}-title`} className="wc-an-section__title">
          Failed Webhooks
        </h2>
        {pagination ? <p className="wc-muted wc-an-count">{plural(pagination.total, 'failed webhook')}</p> : null}
      </div>

      <div className="wc-an-filters wc-an-filters--compact" role="group" aria-label="Failed webhook list options">
        <PageSizeField id={`${id}-limit`} value={list.limit} onChange={(value) => dispatch({ type: 'limit', value })} />
      </div>

      {selected.size > 0 ? (
        <BulkBar label="Failed webhook bulk actions" count={selected.size} pending={false} onClear={() => setSelected(new Set())} onDelete={() => setConfirming(true)} />
      ) : null}

      <p className="wc-an-hint" id={`${id}-help`}>
        Click a row, or its job id, to show its details.
      </p>
      <ListTable
        caption="Failed webhooks"
        selectAllLabel="Select all failed webhooks on this page"
        headings={['Job', 'User', 'Failed', 'Retries', 'Error', <span className="wc-an-sr">Actions</span>]}
        query={webhooks}
        emptyText="No failed webhooks"
        selected={selected}
        pageIds={pageIds}
        onSelected={setSelected}
        describedBy={`${id}-help`}
      >
        {rows.map((row) => (
          <WebhookItem
            key={row.jobId}
            row={row}
            detailsId={`${id}-details-${row.jobId}`}
            selected={selected.has(row.jobId)}
            expanded={expanded === row.jobId}
            retrying={retry.isPending && retry.variables === row.jobId}
            onToggle={() => setSelected((s) => toggleSelected(s, row.jobId))}
            onExpand={() => setExpanded((e) => toggleExpanded(e, row.jobId))}
            onRetry={() => retry.mutate(row.jobId)}
          />
        ))}
      </ListTable>

      {pagination ? <Pager label="Failed webhook pages" pagination={pagination} page={list.page} onPage={(value) => dispatch({ type: 'page', value })} /> : null}

      {confirming ? (
        <BulkRecordsDeleteDialog
          title={`Delete ${plural(selected.size, 'failed webhook')}?`}
          description={`The ${formatCount(selected.size)} selected failed webhook records will be deleted; their events will not be retried.`}
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

interface ItemProps {
  row: FailedWebhookRow;
  detailsId: string;
  selected: boolean;
  expanded: boolean;
  retrying: boolean;
  onToggle: () => void;
  onExpand: () => void;
  onRetry: () => void;
}

/** Controls inside the row keep their own clicks and keys. */
const fromControl = (target: EventTarget) => target instanceof Element && target.closest('button, input, a, select, label') !== null;

function WebhookItem({ row, detailsId, selected, expanded, retrying, onToggle, onExpand, onRetry }: ItemProps) {
  const short = shortId(row.jobId, JOB_ID_CHARS);
  // the mouse may click anywhere on the row; the keyboard uses the job button
  const onClick = (e: MouseEvent<HTMLTableRowElement>) => {
    if (!fromControl(e.target)) onExpand();
  };
  return (
    <>
      <tr className={expanded ? 'wc-an-row--expandable wc-an-row--open' : 'wc-an-row--expandable'} aria-selected={selected} data-testid="webhook-row" onClick={onClick}>
        <td className="wc-an-table__check">
          <input type="checkbox" aria-label={`Select failed webhook ${short}`} checked={selected} onChange={onToggle} />
        </td>
        <td>
          <button
            type="button"
            className="wc-an-disclosure"
            aria-expanded={expanded}
            aria-controls={expanded ? detailsId : undefined}
            data-testid="webhook-toggle"
            title={row.jobId}
            onClick={onExpand}
          >
            <span className="wc-an-chevron" aria-hidden="true">
              {expanded ? '▾' : '▸'}
            </span>
            <span className="wc-an-sr">Details of webhook </span>
            <code className="wc-an-code">{short}</code>
          </button>
          <span className="wc-an-subtle">{row.eventType}</span>
        </td>
        <td className="wc-an-table__user">{formatUser(row.userId)}</td>
        <td className="wc-an-nowrap">
          <time dateTime={row.failedAt} title={formatDate(row.failedAt)}>
            {formatRelativeTime(row.failedAt)}
          </time>
        </td>
        <td className="wc-an-num">{formatCount(row.webhookRetryCount)}</td>
        <td className="wc-an-message">{row.webhookDetails.error || UNKNOWN_ERROR}</td>
        <td>
          <button type="button" className="wc-button wc-button--small" aria-label={`Retry webhook ${short}`} data-testid="webhook-retry" disabled={retrying} onClick={onRetry}>
            {retrying ? 'Retrying...' : 'Retry'}
          </button>
        </td>
      </tr>
      {expanded ? (
        <tr className="wc-an-details-row">
          <td colSpan={COLUMNS}>
            <WebhookDetails id={detailsId} row={row} />
          </td>
        </tr>
      ) : null}
    </>
  );
}

function WebhookDetails({ id, row }: { id: string; row: FailedWebhookRow }) {
  const d = row.webhookDetails;
  return (
    <div id={id} className="wc-an-details" data-testid="webhook-details">
      <dl className="wc-an-dl">
        {d.latestRetryError ? (
          <div className="wc-an-dl__row">
            <dt>Latest retry error</dt>
            <dd className="wc-an-message" data-testid="webhook-latest-error">
              {d.latestRetryError}
            </dd>
          </div>
        ) : null}
        <div className="wc-an-dl__row">
          <dt>Original error</dt>
          <dd className="wc-an-message" data-testid="webhook-error">
            {d.error || UNKNOWN_ERROR}
          </dd>
        </div>
        <div className="wc-an-dl__row">
          <dt>URL</dt>
          <dd className="wc-an-code wc-an-message">{d.webhookUrl}</dd>
        </div>
        <div className="wc-an-dl__row">
          <dt>Token</dt>
          <dd data-testid="webhook-token">
            {d.jwtTokenMasked !== null ? (
              <>
                <code className="wc-an-code">{d.jwtTokenMasked}</code> <span className="wc-an-subtle wc-an-inline">{TOKEN_NOTE}</span>
              </>
            ) : (
              <span className="wc-an-subtle wc-an-inline">None: this event cannot be retried automatically</span>
            )}
          </dd>
        </div>
        {row.exportJobId ? (
          <div className="wc-an-dl__row">
            <dt>Export job</dt>
            <dd className="wc-an-code">{row.exportJobId}</dd>
          </div>
        ) : null}
        <div className="wc-an-dl__row">
          <dt>Event received</dt>
          <dd>
            <time dateTime={row.createdAt}>{formatDate(row.createdAt)}</time>
          </dd>
        </div>
        <div className="wc-an-dl__row">
          <dt>Failed at</dt>
          <dd>
            <time dateTime={d.failedAt}>{formatDate(d.failedAt)}</time> <span className="wc-an-subtle wc-an-inline">({formatRelativeTime(d.failedAt)})</span>
          </dd>
        </div>
      </dl>
      <p className="wc-an-details__label">Payload</p>
      <pre className="wc-an-pre" data-testid="webhook-payload" tabIndex={0}>
        {formatPayload(d.payload)}
      </pre>
    </div>
  );
}
