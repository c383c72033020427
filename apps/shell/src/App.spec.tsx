/** @jest-environment jsdom */
import './testing/jsdom-polyfills';
import '@testing-library/jest-dom';
import { fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import type { RemoteSlotProps } from './RemoteSlot';

jest.mock('./RemoteSlot', () => ({
  RemoteSlot: ({ name, basePath }: RemoteSlotProps) => <div data-testid={`slot-${name}`}>{basePath}</div>,
}));

import { App } from './App';
import { ErrorBoundary } from './ErrorBoundary';

function renderAt(path: string) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <App />
    </MemoryRouter>,
  );
}

describe('routes', () => {
  it.each(['/', '/editor', '/editor/v1', '/videos', '/videos/v1', '/video/v1'])('%s shows the editor page', (path) => {
    renderAt(path);
    expect(screen.getByTestId('slot-editor')).toBeInTheDocument();
    expect(screen.getByTestId('slot-publish')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'WordCut, home' })).toBeInTheDocument();
  });

  it('shows the video id in the header title area', () => {
    renderAt('/videos/abc');
    expect(screen.getByRole('banner')).toHaveTextContent('Video abc');
  });

  it('/analytics shows the analytics remote', () => {
    renderAt('/analytics');
    expect(screen.getByTestId('slot-analytics')).toHaveTextContent('/analytics');
    expect(screen.queryByTestId('slot-editor')).not.toBeInTheDocument();
  });

  it('any other path shows the not-found screen', () => {
    renderAt('/nowhere/at/all');
    expect(screen.getByRole('heading', { name: '404 Page Not Found' })).toBeInTheDocument();
    expect(screen.getByText('Did you forget to add the page to the router?')).toBeInTheDocument();
  });

  it('?panel=keyclips on an editor route opens the KeyClips panel; Escape closes it', () => {
    renderAt('/editor/v1?panel=keyclips');
    const dialog = screen.getByRole('dialog', { name: 'KeyClips' });
    expect(dialog).toContainElement(screen.getByTestId('slot-keyclips'));
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('?panel=keyclips does nothing outside editor routes', () => {
    renderAt('/analytics?panel=keyclips');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});

describe('<ErrorBoundary />', () => {
  beforeEach(() => jest.spyOn(console, 'error').mockImplementation(() => undefined));
  afterEach(() => jest.restoreAllMocks());

  it('shows the error screen and Try Again renders the content again', () => {
    let fail = true;
    const Child = () => {
      if (fail) throw new Error('boom');
      return <p>content</p>;
    };
    render(
      <ErrorBoundary>
        <Child />
      </ErrorBoundary>,
    );
    expect(screen.getByRole('heading', { name: 'Something went wrong' })).toBeInTheDocument();
    expect(
      screen.getByText('An error occurred while processing your video. This might be due to a temporary issue.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Reload Page' })).toBeInTheDocument();
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(screen.getByText('content')).toBeInTheDocument();
  });
});
