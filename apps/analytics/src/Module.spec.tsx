/** @jest-environment jsdom */
import '@testing-library/jest-dom';
import { fireEvent, render, screen } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { createQueryClient } from '@wordcut/ui';
import AnalyticsModule, { ANALYTICS_LOGIN_PATH } from './Module';

const fetchMock = jest.fn<Promise<Response>, [string, RequestInit?]>();

beforeEach(() => {
  fetchMock.mockReset();
  global.fetch = fetchMock as unknown as typeof fetch;
});

function renderModule() {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <AnalyticsModule basePath="/analytics" />
    </QueryClientProvider>,
  );
}

describe('analytics remote', () => {
  it('shows the password login with Login disabled while the password is empty', () => {
    renderModule();
    expect(screen.getByRole('heading', { name: 'Analytics Dashboard' })).toBeInTheDocument();
    const login = screen.getByRole('button', { name: 'Login' });
    expect(login).toBeDisabled();
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'pw' } });
    expect(login).toBeEnabled();
  });

  it('posts the password and says access denied on 401', async () => {
    fetchMock.mockResolvedValue({ ok: false, status: 401, statusText: 'Unauthorized', text: async () => '' } as unknown as Response);
    renderModule();
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'wrong' } });
    fireEvent.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Access denied: Incorrect password');
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe(ANALYTICS_LOGIN_PATH);
    expect(init?.method).toBe('POST');
    expect(init?.body).toBe('{"password":"wrong"}');
  });
});
