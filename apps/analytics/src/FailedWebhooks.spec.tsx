/** @jest-environment jsdom */
import '@testing-library/jest-dom';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { createQueryClient, toast } from '@wordcut/ui';
import { rememberSession } from './api';
import { FailedWebhooks, retryOutcome } from './FailedWebhooks';
import { failedWebhook, json, router, webhookPage, type Routes } from './testing.spec-helpers';

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
  rememberSession({ authenticated: true, csrfToken: 'csrf-hooks' });
});

const one = failedWebhook(1, { latestRetryError: 'provider answered 503', payload: { videoId: 'v1', status: 'done' } });
const two = failedWebhook(2, { error: null, jwtTokenMasked: null });

function renderWebhooks(routes: Routes) {
  fetchMock.mockImplementation(router(routes));
  render(
    <QueryClientProvider client={createQueryClient()}>
      <FailedWebhooks />
    </QueryClientProvider>,
  );
  return screen.getByTestId('section-failed-webhooks');
}

const listCalls = () => fetchMock.mock.calls.filter(([url]) => url.startsWith('/api/analytics/webhooks/failed?')).map(([url]) => url);

describe('failed webhooks', () => {
  it("lists each job with its original error, or 'Unknown error'", async () => {
    const section = renderWebhooks({ 'GET /api/analytics/webhooks/failed': () => json(200, webhookPage([one, two])) });
    const rows = await within(section).findAllByTestId('webhook-row');
    expect(listCalls()[0]).toBe('/api/analytics/webhooks/failed?page=1&limit=20');
    expect(within(rows[0]!).getByRole('button', { name: `Details of webhook ${one.jobId.slice(0, 8)}` })).toHaveAttribute('title', one.jobId);
    expect(rows[0]).toHaveTextContent('upload.completed');
    expect(rows[0]).toHaveTextContent('wordcut:owner');
    expect(rows[0]).toHaveTextContent('10 minutes ago');
    expect(rows[0]).toHaveTextContent('original failure 1');
    expect(rows[1]).toHaveTextContent('Unknown error');
    expect(within(section).queryByTestId('webhook-details')).not.toBeInTheDocument();
  });

  it("says 'No failed webhooks' when there are none", async () => {
    const section = renderWebhooks({ 'GET /api/analytics/webhooks/failed': () => json(200, webhookPage([])) });
    expect(await within(section).findByText('No failed webhooks')).toBeInTheDocument();
  });

  it('expands one row at a time, from a click on the row or its job button, and shows its details', async () => {
    const section = renderWebhooks({ 'GET /api/analytics/webhooks/failed': () => json(200, webhookPage([one, two])) });
    const [first, second] = await within(section).findAllByTestId('webhook-row');
    const [firstToggle, secondToggle] = within(section).getAllByTestId('webhook-toggle');
    // a native button: Enter and Space press it, and it says whether its row is open
    expect(firstToggle!.tagName).toBe('BUTTON');
    expect(firstToggle).toHaveAttribute('type', 'button');
    expect(firstToggle).toHaveAttribute('aria-expanded', 'false');

    fireEvent.click(within(first!).getByText('original failure 1'));
    expect(firstToggle).toHaveAttribute('aria-expanded', 'true');
    let details = within(section).getAllByTestId('webhook-details');
    expect(details).toHaveLength(1);
    expect(firstToggle).toHaveAttribute('aria-controls', details[0]!.id);
    expect(within(details[0]!).getByTestId('webhook-latest-error')).toHaveTextContent('provider answered 503');
    expect(within(details[0]!).getByTestId('webhook-error')).toHaveTextContent('original failure 1');
    expect(details[0]).toHaveTextContent('https://provider.example/hooks/wordcut');
    expect(within(details[0]!).getByTestId('webhook-token')).toHaveTextContent('eyJh…c2ln Token available for automatic retry');
    const payload = within(details[0]!).getByTestId('webhook-payload');
    expect(payload.tagName).toBe('PRE');
    expect(payload.textContent).toBe('{\n  "videoId": "v1",\n  "status": "done"\n}');
    expect(details[0]).toHaveTextContent('10 minutes ago');

    fireEvent.click(second!);
    expect(firstToggle).toHaveAttribute('aria-expanded', 'false');
    expect(secondToggle).toHaveAttribute('aria-expanded', 'true');
    details = within(section).getAllByTestId('webhook-details');
    expect(details).toHaveLength(1);
    expect(within(details[0]!).queryByTestId('webhook-latest-error')).not.toBeInTheDocument();
    expect(within(details[0]!).getByTestId('webhook-error')).toHaveTextContent('Unknown error');
    expect(details[0]).not.toHaveTextContent('Token available for automatic retry');

    fireEvent.click(second!);
    expect(within(section).queryByTestId('webhook-details')).not.toBeInTheDocument();

    fireEvent.click(firstToggle!);
    expect(firstToggle).toHaveAttribute('aria-expanded', 'true');
    fireEvent.click(secondToggle!);
    expect(firstToggle).toHaveAttribute('aria-expanded', 'false');
    expect(secondToggle).toHaveAttribute('aria-expanded', 'true');
    fireEvent.click(secondToggle!);
    expect(within(section).queryByTestId('webhook-details')).not.toBeInTheDocument();

    // the row's other controls keep their clicks
    fireEvent.click(within(first!).getByRole('checkbox'));
    expect(firstToggle).toHaveAttribute('aria-expanded', 'false');
    expect(within(section).getByRole('region', { name: 'Failed webhook bulk actions' })).toHaveTextContent('1 selected');
  });

  it('retries a webhook with the CSRF token, says so, and refetches', async () => {
    let retried = false;
    const section = renderWebhooks({
      'GET /api/analytics/webhooks/failed': () => json(200, webhookPage(retried ? [two] : [one, two])),
      [`POST /api/analytics/webhooks/${encodeURIComponent(one.jobId)}/retry`]: () => {
        retried = true;
        return json(200, { jobId: one.jobId, succeeded: true, error: null });
      },
    });
    const [first] = await within(section).findAllByTestId('webhook-row');
    fireEvent.click(within(first!).getByTestId('webhook-retry'));
    expect(within(section).queryByTestId('webhook-details')).not.toBeInTheDocument();
    await waitFor(() => expect(within(section).getAllByTestId('webhook-row')).toHaveLength(1));
    const [, init] = fetchMock.mock.calls.find(([url]) => url.endsWith('/retry'))!;
    expect(init?.method).toBe('POST');
    expect((init?.headers as Record<string, string>)['x-csrf-token']).toBe('csrf-hooks');
    expect(toast).toHaveBeenCalledWith(expect.objectContaining({ title: 'Webhook retried', variant: 'default' }));
    expect(listCalls()).toHaveLength(2);
  });

  it("says 'Webhook Retry Failed' with the error when the retry fails again, and refetches", async () => {
    const section = renderWebhooks({
      'GET /api/analytics/webhooks/failed': () => json(200, webhookPage([one])),
      [`POST /api/analytics/webhooks/${encodeURIComponent(one.jobId)}/retry`]: () => json(200, { jobId: one.jobId, succeeded: false, error: 'provider answered 502' }),
    });
    fireEvent.click(await within(section).findByRole('button', { name: `Retry webhook ${one.jobId.slice(0, 8)}` }));
    await waitFor(() => expect(toast).toHaveBeenCalledWith({ title: 'Webhook Retry Failed', description: 'provider answered 502', variant: 'destructive' }));
    await waitFor(() => expect(listCalls()).toHaveLength(2));
  });

  it("says 'Webhook Retry Failed' when the call itself fails", async () => {
    const section = renderWebhooks({
      'GET /api/analytics/webhooks/failed': () => json(200, webhookPage([one])),
      [`POST /api/analytics/webhooks/${encodeURIComponent(one.jobId)}/retry`]: () => json(409, { message: 'Retry already running' }),
    });
    fireEvent.click(await within(section).findByTestId('webhook-retry'));
    await waitFor(() => expect(toast).toHaveBeenCalledWith({ title: 'Webhook Retry Failed', description: 'Retry already running', variant: 'destructive' }));
  });

  it('bulk deletes the selected records with their jobIds, and reports a failure', async () => {
    let fail = true;
    const section = renderWebhooks({
      'GET /api/analytics/webhooks/failed': () => json(200, webhookPage(fail ? [one, two] : [])),
      'POST /api/analytics/webhooks/bulk-delete': () => {
        if (fail) return json(500, { message: 'store offline' });
        return json(200, { deleted: 2 });
      },
    });
    await within(section).findAllByTestId('webhook-row');
    fireEvent.click(within(section).getByRole('checkbox', { name: 'Select all failed webhooks on this page' }));
    fireEvent.click(within(section).getByRole('button', { name: 'Delete selected' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete 2 failed webhooks?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Bulk Delete Failed: store offline');
    fail = false;
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await within(section).findByText('No failed webhooks')).toBeInTheDocument();
    const bodies = fetchMock.mock.calls.filter(([url]) => url === '/api/analytics/webhooks/bulk-delete').map(([, init]) => JSON.parse(String(init?.body)) as unknown);
    expect(bodies).toEqual([{ jobIds: [one.jobId, two.jobId] }, { jobIds: [one.jobId, two.jobId] }]);
    const [, init] = fetchMock.mock.calls.find(([url]) => url === '/api/analytics/webhooks/bulk-delete')!;
    expect((init?.headers as Record<string, string>)['x-csrf-token']).toBe('csrf-hooks');
  });

  it('returns to page 1 on a page-size change', async () => {
    const section = renderWebhooks({
      'GET /api/analytics/webhooks/failed': (_init, url) => {
        const q = new URLSearchParams(url!.split('?')[1]);
        return json(200, webhookPage([one], 45, Number(q.get('page')), Number(q.get('limit'))));
      },
    });
    await within(section).findByTestId('webhook-row');
    expect(within(section).getByRole('button', { name: 'Prev' })).toBeDisabled();
    fireEvent.click(within(section).getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(listCalls().at(-1)).toBe('/api/analytics/webhooks/failed?page=2&limit=20'));
    fireEvent.change(within(section).getByLabelText('Per page'), { target: { value: '10' } });
    await waitFor(() => expect(listCalls().at(-1)).toBe('/api/analytics/webhooks/failed?page=1&limit=10'));
  });

  it('words the retry outcome', () => {
    expect(retryOutcome({ jobId: 'abcdefgh-1', succeeded: true, error: null })).toEqual({ title: 'Webhook retried', description: 'Job abcdefgh was applied.', failed: false });
    expect(retryOutcome({ jobId: 'a', succeeded: false, error: 'boom' })).toEqual({ title: 'Webhook Retry Failed', description: 'boom', failed: true });
    expect(retryOutcome({ jobId: 'a', succeeded: false, error: null })).toEqual({ title: 'Webhook Retry Failed', description: 'Unknown error', failed: true });
  });
});
