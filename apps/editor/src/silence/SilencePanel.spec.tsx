/** @jest-environment jsdom */
import '@wordcut/ui/src/testing/jsdom-polyfills';
import '@testing-library/jest-dom';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { JobRunnerContext } from '../jobs/jobRunner';
import type { JobRunner } from '../jobs/jobRunner';
import { PlaybackContext, createPlaybackStore } from '../shared/playback';
import { WorkspaceContext, WorkspaceStore } from '../shared/workspace';
import { fakeLayout } from '../testing/fixtures';
import { renderWithProviders } from '@wordcut/ui/src/testing/fixtures';
import { PauseHelpDialog } from './PauseHelpDialog';
import { SilenceBar } from './SilenceBar';
import { SilenceContext } from './silenceContext';
import { SilencePanel } from './SilencePanel';
import { SilenceStore } from './silenceState';
import { analysisOf, pause } from './testing.spec-helpers';

/** The panel in the DOM: a long list stays virtualised, decisions reach the process buttons, the help dialog gives focus back. */

let layout: ReturnType<typeof fakeLayout>;
beforeEach(() => (layout = fakeLayout(440, 400)));
afterEach(() => layout.restore());

function renderPanel(count: number) {
  const silence = new SilenceStore('v1');
  const workspace = new WorkspaceStore();
  const runner: JobRunner = { job: null, start: jest.fn(), cancel: jest.fn(async () => undefined) };
  const silences = Array.from({ length: count }, (_, i) => pause(i * 3, i * 3 + 1.5, i % 2 ? 'keep' : 'remove'));
  silence.update({ analysis: analysisOf(silences), panelOpen: true });
  const view = renderWithProviders(
    <PlaybackContext.Provider value={createPlaybackStore()}>
      <WorkspaceContext.Provider value={workspace}>
        <JobRunnerContext.Provider value={runner}>
          <SilenceContext.Provider value={silence}>
            <SilenceBar />
            <SilencePanel duration={count * 3 + 10} />
            <PauseHelpDialog />
          </SilenceContext.Provider>
        </JobRunnerContext.Provider>
      </WorkspaceContext.Provider>
    </PlaybackContext.Provider>,
  );
  return { ...view, silence, workspace };
}

it('renders only the rows in view of 2,000 pauses, and a toggle updates the counts in the same render', () => {
  const { silence } = renderPanel(2000);
  const panel = screen.getByTestId('silence-panel');
  const rows = within(panel).getAllByTestId('silence-row');
  expect(rows.length).toBeGreaterThan(0);
  expect(rows.length).toBeLessThan(40);
  expect(within(panel).getByTestId('silence-process')).toHaveTextContent('Process 1000 Silence Segments');
  fireEvent.click(within(rows[1]!).getByTestId('silence-toggle'));
  expect(rows[1]).toHaveAttribute('data-decision', 'remove');
  expect(within(panel).getByTestId('silence-process')).toHaveTextContent('Process 1001 Silence Segments');
  expect(screen.getByTestId('pending-silences-bar')).toHaveTextContent('Process 1001 Silence Segments');
  expect(silence.getSnapshot().decisions['pause-3000']).toBe('remove');
});

it('Keep All and Remove All', () => {
  renderPanel(6);
  fireEvent.click(screen.getByRole('button', { name: 'Keep All' }));
  expect(screen.getByTestId('silence-process')).toHaveTextContent('Process 0 Silence Segments');
  expect(screen.queryByTestId('pending-silences-bar')).not.toBeInTheDocument();
  fireEvent.click(screen.getByRole('button', { name: 'Remove All' }));
  expect(screen.getByTestId('silence-process')).toHaveTextContent('Process 6 Silence Segments');
});

it('shows the speech analysis, the slider at 0.1 to 10 s, and context, type, confidence and reason per row', () => {
  renderPanel(2);
  expect(screen.getByRole('heading', { name: 'Speech Analysis' })).toBeInTheDocument();
  expect(screen.getByTestId('metric-wpm')).toHaveTextContent('150');
  const slider = screen.getByRole('slider', { name: /Minimum pause/ });
  expect(slider).toHaveAttribute('min', '0.1');
  expect(slider).toHaveAttribute('max', '10');
  expect(slider).toHaveAttribute('step', '0.1');
  expect(slider).toHaveValue('2');
  const row = screen.getAllByTestId('silence-row')[0]!;
  expect(within(row).getByTestId('silence-type')).toHaveTextContent('Awkward');
  expect(within(row).getByTestId('silence-confidence')).toHaveTextContent('85% confidence');
  expect(within(row).getByTestId('silence-reason')).toHaveTextContent('A pause inside a sentence.');
});

it('the help dialog opens from the panel and gives focus back to its button', async () => {
  renderPanel(2);
  const help = screen.getByRole('button', { name: 'How Pause Detection Works' });
  help.focus();
  fireEvent.click(help);
  const dialog = await screen.findByRole('dialog', { name: 'How Pause Detection Works' });
  expect(dialog).toHaveTextContent('Technical, remove');
  await waitFor(() => expect(dialog).toContainElement(document.activeElement as HTMLElement));
  fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
  await waitFor(() => expect(screen.queryByRole('dialog', { name: 'How Pause Detection Works' })).not.toBeInTheDocument());
  expect(help).toHaveFocus();
});
