/** @jest-environment jsdom */
import '@testing-library/jest-dom';
import { act, fireEvent, render, screen } from '@testing-library/react';
import type { RemoteModule, RemoteName } from '@wordcut/ui';

const loadRemoteModule = jest.fn<Promise<RemoteModule>, [RemoteName, { retry?: boolean }?]>();
jest.mock('./remotes', () => ({ loadRemoteModule: (...args: [RemoteName, { retry?: boolean }?]) => loadRemoteModule(...args) }));

import { RemoteSlot } from './RemoteSlot';

beforeEach(() => {
  loadRemoteModule.mockReset();
  jest.spyOn(console, 'error').mockImplementation(() => undefined);
});

afterEach(() => {
  jest.restoreAllMocks();
});

describe('<RemoteSlot />', () => {
  it('shows a loading text, then the remote with its props', async () => {
    let resolve!: (mod: RemoteModule) => void;
    loadRemoteModule.mockReturnValue(new Promise((r) => (resolve = r)));
    render(<RemoteSlot name="analytics" basePath="/analytics" />);
    expect(screen.getByRole('status')).toHaveTextContent('Loading Analytics…');
    await act(async () => resolve({ default: ({ basePath }) => <p>analytics at {basePath}</p> }));
    expect(await screen.findByText('analytics at /analytics')).toBeInTheDocument();
  });

  it('shows a fallback naming the missing part when the remote cannot be loaded, and retries', async () => {
    loadRemoteModule.mockRejectedValueOnce(new Error('Failed to get manifest'));
    render(<RemoteSlot name="editor" basePath="/" />);

    const fallback = await screen.findByTestId('remote-fallback-editor');
    expect(fallback).toHaveAttribute('role', 'alert');
    expect(screen.getByRole('heading', { name: 'Editor is unavailable' })).toBeInTheDocument();
    expect(fallback).toHaveTextContent('This part of WordCut could not be loaded. The rest of the app still works.');
    expect(fallback).toHaveTextContent('Failed to get manifest');
    expect(loadRemoteModule).toHaveBeenLastCalledWith('editor', { retry: false });

    loadRemoteModule.mockResolvedValueOnce({ default: () => <p>the editor</p> });
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('the editor')).toBeInTheDocument();
    expect(loadRemoteModule).toHaveBeenLastCalledWith('editor', { retry: true });
    expect(screen.queryByTestId('remote-fallback-editor')).not.toBeInTheDocument();
  });

  it('has a compact fallback for header slots', async () => {
    loadRemoteModule.mockRejectedValueOnce(new Error('connection refused'));
    render(<RemoteSlot name="publish" basePath="/" variant="inline" />);
    const fallback = await screen.findByTestId('remote-fallback-publish');
    expect(fallback).toHaveAttribute('role', 'alert');
    expect(fallback).toHaveTextContent('Publishing is unavailable');
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  });
});
