/** @jest-environment jsdom */
import '@testing-library/jest-dom';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { createQueryClient, toast } from '@wordcut/ui';
import { rememberSession } from './api';
import { ErrorLogs } from './ErrorLogs';
import { errorLog, errorLogPage, json, minutesAgo, router, type Routes } from './testing.spec-helpers';

jest.mock('@wordcut/ui', () => ({ ...jest.requireActual<object>('@wordcut/ui'), toast: jest.fn() }));

const fetchMock = jest.fn<Promise<Response>, [string, RequestInit?]>();

beforeEach(() => {
  fetchMock.mockReset();
  jest.mocked(toast).mockClear();
  global.fetch = fetchMock as unknown as typeof fetch;
  HTMLDialogElement.prototype.showModal ??= function (this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  HTMLDialogElement.prototype.close ??= function (this: HTMLDialogElement) {
    this.removeAttribute('open');
  };
  rememberSession({ authenticated: true, csrfToken: 'csrf-logs' });
});

/** A server that answers the page asked for, out of `total` entries. */
function pagedLogs(total: number) {
  return (_init?: RequestInit, url?: string) => {
    const q = new URLSearchParams(url!.split('?')[1]);
    const page = Number(q.get('page'));
    const limit = Number(q.get('limit'));
    return json(200, errorLogPage([errorLog(page)], total, page, limit));
  };
}

function renderLogs(routes: Routes) {
  fetchMock.mockImplementation(router(routes));
  render(
    <QueryClientProvider client={createQueryClient()}>
      <ErrorLogs />
    </QueryClientProvider>,
  );
  return screen.getByTestId('section-error-logs');
}

const listCalls = () => fetchMock.mock.calls.filter(([url]) => url.startsWith('/api/analytics/errors?')).map(([url]) => url);

describe('error logs', () => {
  it('lists time, severity, service, endpoint and message', async () => {
    const section = renderLogs({
      'GET /api/analytics/errors': () =>
        json(200, errorLogPage([errorLog(3, { severity: 'warn', message: 'slow upstream' }), errorLog(4, { severity: 'fatal', endpoint: null, service: 'media', createdAt: 'garbled' })])),
    });
    const rows = await within(section).findAllByTestId('error-log-row');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('3 minutes ago');
    expect(within(rows[0]!).getByText('Warning')).toHaveClass('wc-an-badge--warn');
    expect(rows[0]).toHaveTextContent('gateway');
    expect(rows[0]).toHaveTextContent('/api/videos');
    expect(rows[0]).toHaveTextContent('slow upstream');
    expect(within(rows[1]!).getByText('Fatal')).toBeInTheDocument();
    expect(rows[1]).toHaveTextContent('N/A');
    expect(rows[1]).toHaveTextContent('garbled');
    expect(listCalls()[0]).toBe('/api/analytics/errors?severity=all&page=1&limit=20');
    expect(within(section).getByRole('columnheader', { name: 'Severity' })).toHaveAttribute('scope', 'col');
    expect(within(section).getByRole('checkbox', { name: /Select warning from gateway at/ })).toBeInTheDocument();
  });

  it("shows 5 skeleton rows while loading, then 'No error logs found'", async () => {
    let release: (r: Response) => void = () => undefined;
    const section = renderLogs({ 'GET /api/analytics/errors': () => new Promise<Response>((resolve) => (release = resolve)) });
    await waitFor(() => expect(within(section).getAllByTestId('skeleton-row')).toHaveLength(5));
    await act(async () => release(json(200, errorLogPage([]))));
    expect(await within(section).findByText('No error logs found')).toBeInTheDocument();
  });

  it("shows 'Error Loading Analytics' with Retry when the list fails", async () => {
    let fail = true;
    const section = renderLogs({ 'GET /api/analytics/errors': () => (fail ? json(500, { message: 'logs down' }) : json(200, errorLogPage([errorLog(1)]))) });
    expect(await within(section).findByText('Error Loading Analytics')).toBeInTheDocument();
    expect(section).toHaveTextContent('logs down');
    fail = false;
    fireEvent.click(within(section).getByRole('button', { name: 'Retry' }));
    expect(await within(section).findByTestId('error-log-row')).toBeInTheDocument();
  });

  it('pages with Prev and Next, off at the ends, and returns to page 1 on a severity or page-size change', async () => {
    const section = renderLogs({ 'GET /api/analytics/errors': pagedLogs(45) });
    await within(section).findByTestId('error-log-row');
    const prev = within(section).getByRole('button', { name: 'Prev' });
    const next = within(section).getByRole('button', { name: 'Next' });
    expect(prev).toBeDisabled();
    fireEvent.click(next);
    await waitFor(() => expect(listCalls().at(-1)).toBe('/api/analytics/errors?severity=all&page=2&limit=20'));
    fireEvent.click(next);
    await waitFor(() => expect(within(section).getByText('Page 3 of 3')).toBeInTheDocument());
    expect(next).toBeDisabled();
    expect(prev).toBeEnabled();

    const severity = within(section).getByLabelText('Severity');
    expect([...(severity as HTMLSelectElement).options].map((o) => o.text)).toEqual(['All severities', 'Error', 'Warning', 'Fatal']);
    fireEvent.change(severity, { target: { value: 'warn' } });
    await waitFor(() => expect(listCalls().at(-1)).toBe('/api/analytics/errors?severity=warn&page=1&limit=20'));
    fireEvent.click(next);
    await waitFor(() => expect(listCalls().at(-1)).toBe('/api/analytics/errors?severity=warn&page=2&limit=20'));

    const perPage = within(section).getByLabelText('Per page');
    expect([...(perPage as HTMLSelectElement).options].map((o) => o.value)).toEqual(['10', '20', '50', '100']);
    fireEvent.change(perPage, { target: { value: '50' } });
    await waitFor(() => expect(listCalls().at(-1)).toBe('/api/analytics/errors?severity=warn&page=1&limit=50'));
  });

  it('bulk deletes the selected entries with their errorIds and the CSRF token', async () => {
    let deleted = false;
    const section = renderLogs({
      'GET /api/analytics/errors': () => json(200, errorLogPage(deleted ? [] : [errorLog(1), errorLog(2)])),
      'POST /api/analytics/errors/bulk-delete': () => {
        deleted = true;
        return json(200, { deleted: 2 });
      },
    });
    await within(section).findAllByTestId('error-log-row');
    const selectAll = within(section).getByRole('checkbox', { name: 'Select all error logs on this page' });
    expect(within(section).queryByRole('region', { name: 'Error log bulk actions' })).not.toBeInTheDocument();
    fireEvent.click(selectAll);
    const bar = within(section).getByRole('region', { name: 'Error log bulk actions' });
    expect(bar).toHaveTextContent('2 selected');
    fireEvent.click(within(bar).getByRole('button', { name: 'Delete selected' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete 2 error logs?' });
    expect(dialog).toHaveTextContent('This action cannot be undone.');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await within(section).findByText('No error logs found')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    const [, init] = fetchMock.mock.calls.find(([url]) => url === '/api/analytics/errors/bulk-delete')!;
    expect(init?.method).toBe('POST');
    expect(JSON.parse(String(init?.body))).toEqual({ errorIds: [errorLog(1).id, errorLog(2).id] });
    expect((init?.headers as Record<string, string>)['x-csrf-token']).toBe('csrf-logs');
    expect(toast).toHaveBeenCalledWith(expect.objectContaining({ title: 'Error logs deleted' }));
    expect(within(section).queryByRole('region', { name: 'Error log bulk actions' })).not.toBeInTheDocument();
  });

  it("says 'Bulk Delete Failed' when the deletion fails, and keeps the selection", async () => {
    const section = renderLogs({
      'GET /api/analytics/errors': () => json(200, errorLogPage([errorLog(1, { createdAt: minutesAgo(1) })])),
      'POST /api/analytics/errors/bulk-delete': () => json(500, { message: 'database unavailable' }),
    });
    fireEvent.click(await within(section).findByRole('checkbox', { name: /Select error from gateway/ }));
    fireEvent.click(within(section).getByRole('button', { name: 'Delete selected' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete 1 error log?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Bulk Delete Failed: database unavailable');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(within(section).getByRole('region', { name: 'Error log bulk actions' })).toHaveTextContent('1 selected');
  });
});
