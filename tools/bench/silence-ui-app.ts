/**
 * Section 14's page, bundled by silence-ui.ts: the editor's silence panel, open, with the analysis
 * the page carries, inside the providers it reads (as SilencePanel.spec.tsx renders it). The plain
 * build swaps the panel's SilenceList for silence-ui-plain-list.ts; everything else is the same code.
 */
import { createElement as h } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClientProvider } from '@tanstack/react-query';
import type { DetectSilenceResponse } from '@wordcut/contracts';
import { TooltipProvider, createQueryClient } from '@wordcut/ui';
import { JobRunnerContext, type JobRunner } from '../../apps/editor/src/jobs/jobRunner';
import { PlaybackContext, createPlaybackStore } from '../../apps/editor/src/shared/playback';
import { WorkspaceContext, WorkspaceStore } from '../../apps/editor/src/shared/workspace';
import { SilencePanel } from '../../apps/editor/src/silence/SilencePanel';
import { SilenceContext } from '../../apps/editor/src/silence/silenceContext';
import { SilenceStore, markedForRemoval } from '../../apps/editor/src/silence/silenceState';

// the element silencePanelPage writes (SILENCE_DATA_ID; this bundle imports nothing of Node's)
const analysis = JSON.parse(document.getElementById('wc-silence-data')!.textContent!) as DetectSilenceResponse;
const silence = new SilenceStore('bench-video');
silence.update({ analysis, panelOpen: true });
const runner: JobRunner = { job: null, start: () => undefined, cancel: () => Promise.resolve() };
const last = analysis.silences[analysis.silences.length - 1];
const duration = (last?.endTime ?? 0) + 5;

/** What the run reads back: when rendering began, and the pauses the store holds marked remove. */
(window as unknown as { __wcSilenceApp: object }).__wcSilenceApp = {
  renderAt: performance.now(),
  marked: () => markedForRemoval(silence.getSnapshot()).length,
  decision: (id: string) => silence.getSnapshot().decisions[id] ?? analysis.silences.find((s) => s.id === id)?.recommendation ?? null,
};
createRoot(document.getElementById('root')!).render(
  h(
    QueryClientProvider,
    { client: createQueryClient() },
    h(
      TooltipProvider,
      null,
      h(
        PlaybackContext.Provider,
        { value: createPlaybackStore() },
        h(
          WorkspaceContext.Provider,
          { value: new WorkspaceStore() },
          h(JobRunnerContext.Provider, { value: runner }, h(SilenceContext.Provider, { value: silence }, h(SilencePanel, { duration }))),
        ),
      ),
    ),
  ),
);
