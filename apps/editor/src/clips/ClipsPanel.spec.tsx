/** @jest-environment jsdom */
import '@wordcut/ui/src/testing/jsdom-polyfills';
import '@testing-library/jest-dom';
import { useState } from 'react';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { TooltipProvider, createQueryClient, dismissToast, getToasts } from '@wordcut/ui';
import { ExportQuotaContext } from '../shared/quota';
import { WorkspaceContext, WorkspaceStore } from '../shared/workspace';
import { VIDEO_ID, fakeLayout, makeTranscript, makeVideo, renderEditor, reply, routeFetch } from '../testing/fixtures';
import type { Handler } from '../testing/fixtures';
import { ClipsPanel } from './ClipsPanel';
import type { ClipItem } from './api';

/**
 * The clip parts of the editor (Quick Export, the Create Clip dialog, the Generated Clips list and
 * its polling, the export quota, the clip toasts), against a fake fetch router.
 */

const videoPath = `/api/videos/${VIDEO_ID}`;
const clipsPath = `${videoPath}/clips`;

function clip(patch: Partial<ClipItem> & Pick<ClipItem, 'id' | 'name' | 'status'>): ClipItem {
  return {
    videoId: VIDEO_ID,
    startTime: 0.5,
    endTime: 1.4,
    aspectRatio: '9:16',
    outputPath: `/api/clips/${patch.id}/download`,
    vttPath: `/api/clips/${patch.id}/vtt`,
    error: null,
    ...patch,
  };
}

function routes(clips: () => ClipItem[] | Response, extra: Record<string, Handler> = {}) {
  return routeFetch({
    'GET /api/vtt/status': () => reply(200, { configured: true, method: 'VTT Upload', legacyUploadEnabled: true }),
    [`GET ${videoPath}`]: () => reply(200, makeVideo()),
    [`GET ${videoPath}/transcript`]: () => reply(200, makeTranscript()),
    [`GET ${videoPath}/waveform`]: () => reply(200, { peaks: [0.2, 0.8, 0.5, 0.1], duration: 30, cached: true }),
    [`GET ${clipsPath}`]: () => {
      const answer = clips();
      return Array.isArray(answer) ? reply(200, answer) : answer;
    },
    ...extra,
  });
}

type Api = ReturnType<typeof routes>;

function bodyOf(api: Api, method: string, path: string): unknown {
  const call = api.calls.filter((c) => c.method === method && c.url === path).pop();
  return call?.init?.body ? JSON.parse(String(call.init.body)) : undefined;
}

async function openEditor(api: Api) {
  renderEditor(`/editor/${VIDEO_ID}`);
  await screen.findAllByTestId('transcript-word');
  await waitFor(() => expect(api.count('GET', clipsPath)).toBeGreaterThan(0));
  return api;
}

/** Selects 'Hello world' (click, then shift-click) as a listener would. */
function selectHelloWorld() {
  fireEvent.click(screen.getByText('Hello'), { detail: 1 });
  fireEvent.click(screen.getByText('world'), { detail: 1, shiftKey: true });
}

// jsdom has no PointerEvent: a MouseEvent carries the pointer's position
if (typeof window.PointerEvent === 'undefined') {
  class PointerEventPolyfill extends MouseEvent {
    readonly pointerId: number;
    constructor(type: string, init: PointerEventInit = {}) {
      super(type, init);
      this.pointerId = init.pointerId ?? 1;
    }
  }
  (window as unknown as { PointerEvent: typeof MouseEvent }).PointerEvent = PointerEventPolyfill;
}

let layout: ReturnType<typeof fakeLayout>;
beforeEach(() => {
  dismissToast();
  layout = fakeLayout();
});
afterEach(() => {
  layout.restore();
  jest.useRealTimers();
});

describe('Quick Export', () => {
  it("without a selection toasts 'No text selected' and creates nothing", async () => {
    const api = await openEditor(routes(() => []));
    const card = screen.getByTestId('quick-export');
    expect(within(card).getAllByRole('button').slice(0, 3).map((b) => b.textContent)).toEqual(['Square 1:1', 'Story 9:16', 'Landscape 16:9']);
    fireEvent.click(screen.getByTestId('quick-export-square'));
    expect(getToasts()[0]).toMatchObject({ title: 'No text selected', description: 'Please select text in the transcript first.' });
    expect(api.count('POST', '/api/clips')).toBe(0);
  });

  it('makes a clip of the selected words, named after the preset, and refreshes the list', async () => {
    let listed: ClipItem[] = [];
    const api = await openEditor(
      routes(() => listed, {
        'POST /api/clips': (_url, init) => {
          const sent = JSON.parse(String(init?.body)) as { name: string };
          listed = [clip({ id: 'c1', name: sent.name, status: 'completed' })];
          return reply(201, { id: 'c1', jobId: 'clip_1', name: sent.name, aspectRatio: '9:16' });
        },
      }),
    );
    selectHelloWorld();
    fireEvent.click(screen.getByTestId('quick-export-story'));
    await waitFor(() => expect(api.count('POST', '/api/clips')).toBe(1));
    const sent = bodyOf(api, 'POST', '/api/clips') as Record<string, unknown>;
    expect(sent).toEqual({ videoId: VIDEO_ID, name: expect.stringMatching(/^Story Clip \d{4}-\d\d-\d\d \d\d\.\d\d\.\d\d$/), startTime: 0.5, endTime: 1.4, aspectRatio: '9:16' });
    await waitFor(() => expect(getToasts()[0]).toMatchObject({ title: 'Clip created', description: `${String(sent.name)} is being processed...` }));
    // the list is fetched again and shows the new clip
    expect(await screen.findByText(String(sent.name))).toBeInTheDocument();
  });

  it("failed creations toast 'Export limit reached' on a 429 quota answer, else the server's message or a retry hint", async () => {
    let answer = (): Response => reply(429, { statusCode: 429, error: 'quota_exceeded', message: 'Monthly export quota used' });
    const api = await openEditor(routes(() => [], { 'POST /api/clips': () => answer() }));
    selectHelloWorld();
    const attempt = async (kind: string, expected: Record<string, string>) => {
      dismissToast();
      const posts = api.count('POST', '/api/clips');
      fireEvent.click(screen.getByTestId(`quick-export-${kind}`));
      await waitFor(() => expect(api.count('POST', '/api/clips')).toBe(posts + 1));
      await waitFor(() => expect(getToasts()[0]).toMatchObject({ ...expected, variant: 'destructive' }));
    };

    // 429 with error 'quota_exceeded'
    const quota = { title: 'Export limit reached', description: "You've reached your monthly export limit. Please upgrade your plan to continue." };
    await attempt('landscape', quota);
    expect((bodyOf(api, 'POST', '/api/clips') as { aspectRatio: string }).aspectRatio).toBe('16:9');
    // the gateway's QUOTA_EXCEEDED code counts too
    answer = () => reply(429, { statusCode: 429, code: 'QUOTA_EXCEEDED', message: 'Too many exports' });
    await attempt('square', quota);
    // any other failure with a message
    answer = () => reply(400, { statusCode: 400, error: 'Bad Request', message: 'endTime must be after startTime' });
    await attempt('story', { title: 'Clip creation failed', description: 'endTime must be after startTime' });
    // no message to show
    answer = () => reply(502, 'Bad Gateway');
    await attempt('square', { title: 'Failed to create clip', description: 'Please try again.' });
  });
});

describe('Create Clip dialog', () => {
  async function openDialog(api: Api) {
    await openEditor(api);
    selectHelloWorld();
    fireEvent.click(await screen.findByTestId('selection-create-clip'));
    return screen.findByTestId('create-clip-dialog');
  }

  const created = (_url: string, init: RequestInit | undefined) => {
    const sent = JSON.parse(String(init?.body)) as { name: string; aspectRatio: string };
    return reply(201, { id: 'c9', jobId: 'clip_9', name: sent.name, aspectRatio: sent.aspectRatio });
  };

  it("opens on the selection with an empty name and aspect 'Original'; an empty name is refused", async () => {
    const api = routes(() => [], { 'POST /api/clips': created });
    const dialog = await openDialog(api);
    expect(within(dialog).getByRole('heading', { name: 'Create Video Clip' })).toBeInTheDocument();
    expect(dialog).toHaveTextContent('Hello world');
    const name = within(dialog).getByTestId('clip-name');
    expect(name).toHaveValue('');
    expect(within(dialog).getByRole('radio', { name: /^Original/ })).toBeChecked();
    expect(within(dialog).getAllByRole('radio').filter((r) => (r as HTMLInputElement).checked)).toHaveLength(1);

    fireEvent.click(within(dialog).getByTestId('create-clip-submit'));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Please enter a clip name');
    expect(name).toHaveAttribute('aria-invalid', 'true');
    // blanks are not a name either
    fireEvent.change(name, { target: { value: '   ' } });
    fireEvent.submit(name.closest('form')!);
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Please enter a clip name');
    expect(api.count('POST', '/api/clips')).toBe(0);
  });

  it('picking 9:16 and pressing Enter in the name creates the clip with aspectRatio 9:16, then closes', async () => {
    const api = routes(() => [], { 'POST /api/clips': created });
    const dialog = await openDialog(api);
    fireEvent.click(within(dialog).getByRole('radio', { name: /^Story/ }));
    expect(within(dialog).getByRole('radio', { name: /^Story/ })).toBeChecked();
    const name = within(dialog).getByTestId('clip-name');
    fireEvent.change(name, { target: { value: '  Opening line  ' } });
    fireEvent.click(within(dialog).getByTestId('clip-captions'));
    // Enter submits: the field sits in a form with an enabled submit button, so the browser's
    // implicit submission (which jsdom does not perform for synthetic key events) sends the form
    const form = (name as HTMLInputElement).form!;
    expect(form).not.toBeNull();
    expect(within(form).getByTestId('create-clip-submit')).toHaveAttribute('type', 'submit');
    expect(within(form).getByTestId('create-clip-submit')).toBeEnabled();
    fireEvent.submit(form);
    await waitFor(() => expect(api.count('POST', '/api/clips')).toBe(1));
    expect(bodyOf(api, 'POST', '/api/clips')).toEqual({ videoId: VIDEO_ID, name: 'Opening line', startTime: 0.5, endTime: 1.4, aspectRatio: '9:16', captions: true });
    await waitFor(() => expect(screen.queryByTestId('create-clip-dialog')).not.toBeInTheDocument());
    expect(getToasts()[0]).toMatchObject({ title: 'Clip created', description: 'Opening line is being processed...' });
  });

  it('zooms and pans the 9:16 preview (slider, buttons, drag, keys, clamped) and sends the reframe the preview shows', async () => {
    const api = routes(() => [], { 'POST /api/clips': created });
    const dialog = await openDialog(api);
    const frame = within(dialog).getByTestId('clip-frame');
    const picture = frame.firstElementChild as HTMLElement;
    expect(within(dialog).getByTestId('clip-preview-video')).toHaveAttribute('src', expect.stringContaining(`/api/videos/${VIDEO_ID}/stream`));
    // Original at zoom 1: the whole 1280x720 frame, nothing to pan
    expect(within(dialog).getByTestId('clip-framing-hint')).toHaveTextContent('The clip keeps the whole frame (1280x720). Zoom in to reframe it.');
    expect(within(dialog).queryByTestId('clip-upscale-warning')).not.toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Zoom out' })).toBeDisabled();

    fireEvent.click(within(dialog).getByRole('radio', { name: /^Story/ }));
    // the stage is 800x600: the 9:16 box is 337.5x600, showing the centred 405x720 window of the frame
    expect(frame.style.width).toBe('337.5px');
    expect(frame.style.height).toBe('600px');
    expect(parseFloat(picture.style.width)).toBeCloseTo((1280 * 337.5) / 405, 6);
    expect(parseFloat(picture.style.left)).toBeCloseTo((-(1280 - 405) / 2) * (337.5 / 405), 6);
    expect(within(dialog).getByTestId('clip-framing-hint')).toHaveTextContent('1080x1920 clip shows, upscaled 2.7x');
    expect(within(dialog).getByTestId('clip-upscale-warning')).toHaveTextContent('Heavy upscaling: the clip enlarges the video 2.7x, so it may look soft.');

    fireEvent.change(within(dialog).getByTestId('clip-zoom'), { target: { value: '1.5' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Zoom in' }));
    expect(within(dialog).getByTestId('clip-zoom')).toHaveValue('1.6');
    expect(frame).toHaveAttribute('data-zoom', '1.6');
    // the picture follows the pointer: dragged left 60 px, the window moves right; a press under 5 px is no pan
    fireEvent.pointerDown(frame, { button: 0, clientX: 200, clientY: 200, pointerId: 1 });
    fireEvent.pointerMove(frame, { clientX: 197, clientY: 198, pointerId: 1 });
    expect(frame).toHaveAttribute('data-offset-x', '0.000');
    fireEvent.pointerMove(frame, { clientX: 140, clientY: 200, pointerId: 1 });
    fireEvent.pointerUp(frame, { clientX: 140, clientY: 200, pointerId: 1 });
    const afterDrag = Number(frame.getAttribute('data-offset-x'));
    // 60 preview px of a 337.5 px box showing 253.125 source px (405 / 1.6), in percent of 1280
    expect(afterDrag).toBeCloseTo(((60 * (405 / 1.6)) / 337.5 / 1280) * 100, 2);
    fireEvent.keyDown(frame, { key: 'ArrowDown' });
    expect(Number(frame.getAttribute('data-offset-y'))).toBeGreaterThan(0);
    // clamped: the window never leaves the frame
    for (let i = 0; i < 40; i += 1) fireEvent.keyDown(frame, { key: 'ArrowRight', shiftKey: true });
    const maxX = ((1280 - 405 / 1.6) / 2 / 1280) * 100;
    expect(Number(frame.getAttribute('data-offset-x'))).toBeCloseTo(maxX, 2);
    expect(parseFloat(picture.style.left) + parseFloat(picture.style.width)).toBeCloseTo(337.5, 4);

    fireEvent.change(within(dialog).getByTestId('clip-name'), { target: { value: 'Framed' } });
    fireEvent.click(within(dialog).getByTestId('create-clip-submit'));
    await waitFor(() => expect(api.count('POST', '/api/clips')).toBe(1));
    const body = bodyOf(api, 'POST', '/api/clips') as { aspectRatio: string; reframe: { offsetX: number; offsetY: number; scale: number } };
    expect(body.aspectRatio).toBe('9:16');
    expect(body.reframe.scale).toBe(1.6);
    expect(body.reframe.offsetX).toBeCloseTo(maxX, 2);
    expect(body.reframe.offsetY).toBeGreaterThan(0);
  });

  it('Reset centres the picture at zoom 1, and another ratio holds the pan to its window', async () => {
    const api = routes(() => [], { 'POST /api/clips': created });
    const dialog = await openDialog(api);
    const frame = within(dialog).getByTestId('clip-frame');
    fireEvent.click(within(dialog).getByRole('radio', { name: /^Square/ }));
    for (let i = 0; i < 10; i += 1) fireEvent.keyDown(frame, { key: 'ArrowLeft', shiftKey: true });
    // 1:1 of 1280x720: a 720 window, at most 280 px (21.875 %) left of centre
    expect(Number(frame.getAttribute('data-offset-x'))).toBeCloseTo(-21.875, 3);
    fireEvent.click(within(dialog).getByRole('radio', { name: /^Landscape/ }));
    expect(frame).toHaveAttribute('data-offset-x', '0.000');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Zoom in' }));
    fireEvent.keyDown(frame, { key: 'ArrowUp' });
    fireEvent.click(within(dialog).getByTestId('clip-zoom-reset'));
    expect(frame).toHaveAttribute('data-zoom', '1.0');
    expect(frame).toHaveAttribute('data-offset-y', '0.000');
    fireEvent.change(within(dialog).getByTestId('clip-name'), { target: { value: 'Plain' } });
    fireEvent.click(within(dialog).getByTestId('create-clip-submit'));
    await waitFor(() => expect(api.count('POST', '/api/clips')).toBe(1));
    // centred at zoom 1: no reframe sent
    expect(bodyOf(api, 'POST', '/api/clips')).toEqual({ videoId: VIDEO_ID, name: 'Plain', startTime: 0.5, endTime: 1.4, aspectRatio: '16:9' });
  });

  it('the default aspect sends Original; a failure keeps the dialog open with the toast', async () => {
    const api = routes(() => [], { 'POST /api/clips': () => reply(500, { statusCode: 500, message: 'Renderer unavailable' }) });
    const dialog = await openDialog(api);
    fireEvent.change(within(dialog).getByTestId('clip-name'), { target: { value: 'Intro' } });
    fireEvent.click(within(dialog).getByTestId('create-clip-submit'));
    await waitFor(() => expect(getToasts()[0]).toMatchObject({ title: 'Clip creation failed', description: 'Renderer unavailable' }));
    expect((bodyOf(api, 'POST', '/api/clips') as { aspectRatio: string }).aspectRatio).toBe('Original');
    expect(screen.getByTestId('create-clip-dialog')).toBeInTheDocument();
  });
});

describe('Generated Clips', () => {
  it('polls every 2000 ms while a clip is pending or processing and stops once all are done', async () => {
    jest.useFakeTimers({ doNotFake: ['queueMicrotask', 'nextTick', 'setImmediate'] });
    let status: ClipItem['status'] = 'processing';
    const api = routes(() => [clip({ id: 'c1', name: 'Teaser', status }), clip({ id: 'c2', name: 'Old', status: 'completed' })]);
    renderEditor(`/editor/${VIDEO_ID}`);
    const item = await screen.findByText('Teaser');
    const row = item.closest('[data-testid="clip-item"]') as HTMLElement;
    expect(row).toHaveAttribute('data-status', 'processing');
    const bar = within(row).getByRole('progressbar', { name: 'Teaser progress' });
    expect(bar).toHaveAttribute('aria-valuenow', '65');
    expect(within(row).queryByTestId('clip-download')).not.toBeInTheDocument();

    const before = api.count('GET', clipsPath);
    await act(async () => {
      await jest.advanceTimersByTimeAsync(2000);
    });
    expect(api.count('GET', clipsPath)).toBe(before + 1);
    status = 'pending';
    await act(async () => {
      await jest.advanceTimersByTimeAsync(2000);
    });
    expect(api.count('GET', clipsPath)).toBe(before + 2);
    await waitFor(() => expect(screen.getByText('Teaser').closest('[data-testid="clip-item"]')).toHaveAttribute('data-status', 'pending'));
    expect(screen.queryByRole('progressbar', { name: 'Teaser progress' })).not.toBeInTheDocument(); // 65% only while processing

    status = 'completed';
    await act(async () => {
      await jest.advanceTimersByTimeAsync(2000);
    });
    const done = api.count('GET', clipsPath);
    expect(done).toBe(before + 3);
    await waitFor(() => expect(screen.getByText('Teaser').closest('[data-testid="clip-item"]')).toHaveAttribute('data-status', 'completed'));
    // the clip that finished is announced (the one already done is not)
    expect(screen.getByTestId('clips-announcement')).toHaveTextContent('Clip ready: Teaser');
    expect(getToasts()[0]).toMatchObject({ title: 'Clip ready', description: 'Teaser is ready to download.' });
    await act(async () => {
      await jest.advanceTimersByTimeAsync(8000);
    });
    expect(api.count('GET', clipsPath)).toBe(done);
  });

  it('completed clips link their MP4 and VTT downloads as {name}.mp4 / {name}.vtt; failed ones show the error', async () => {
    await openEditor(
      routes(() => [
        clip({ id: 'c1', name: 'Best bit', status: 'completed' }),
        clip({ id: 'c2', name: 'Q&A: part 1/2', status: 'completed', aspectRatio: '1:1' }),
        clip({ id: 'c3', name: 'Broken', status: 'failed', error: 'ffmpeg exited with code 1' }),
      ]),
    );
    const rows = await screen.findAllByTestId('clip-item');
    expect(rows).toHaveLength(3);
    expect(screen.getByTestId('generated-clips')).toHaveTextContent('Generated Clips (3)');
    const [best, qa, broken] = rows as [HTMLElement, HTMLElement, HTMLElement];
    expect(within(best).getByTestId('clip-download')).toHaveAttribute('href', '/api/clips/c1/download');
    expect(within(best).getByTestId('clip-download')).toHaveAttribute('download', 'Best bit.mp4');
    expect(within(best).getByTestId('clip-download-vtt')).toHaveAttribute('href', '/api/clips/c1/vtt');
    expect(within(best).getByTestId('clip-download-vtt')).toHaveAttribute('download', 'Best bit.vtt');
    expect(best).toHaveTextContent('9:16');
    // characters a file name cannot hold are replaced
    expect(within(qa).getByTestId('clip-download')).toHaveAttribute('download', 'Q&A_ part 1_2.mp4');
    expect(within(qa).getByTestId('clip-download-vtt')).toHaveAttribute('download', 'Q&A_ part 1_2.vtt');
    expect(within(broken).queryByTestId('clip-download')).not.toBeInTheDocument();
    expect(within(broken).queryByRole('progressbar')).not.toBeInTheDocument();
    expect(broken).toHaveTextContent('ffmpeg exited with code 1');
  });

  it("says so when there are no clips, and shows 'Failed to fetch clips' with a retry on errors", async () => {
    let fail = true;
    const api = await openEditor(routes(() => (fail ? reply(500, { message: 'db down' }) : [])));
    const alert = await within(screen.getByTestId('generated-clips')).findByRole('alert');
    expect(alert).toHaveTextContent('Failed to fetch clips');
    fail = false;
    const before = api.count('GET', clipsPath);
    fireEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByTestId('clips-empty')).toHaveTextContent('No clips yet.');
    expect(api.count('GET', clipsPath)).toBe(before + 1);
  });

  it("delete asks first, then removes the clip and toasts 'Clip deleted'; a failed delete toasts 'Delete failed'", async () => {
    let listed = [clip({ id: 'c1', name: 'Keep me', status: 'completed' }), clip({ id: 'c2', name: 'Drop me', status: 'completed' })];
    let deleteOk = false;
    const api = await openEditor(
      routes(() => listed, {
        'DELETE /api/clips/c2': () => {
          if (!deleteOk) return reply(500, { message: 'locked' });
          listed = listed.filter((c) => c.id !== 'c2');
          return reply(204, '');
        },
      }),
    );
    const deleteButton = await screen.findByRole('button', { name: 'Delete Drop me' });
    deleteButton.focus();
    fireEvent.click(deleteButton);
    // nothing is deleted until the dialog is confirmed; Cancel returns focus to the button
    const dialog = await screen.findByTestId('delete-clip-dialog');
    expect(dialog).toHaveTextContent('“Drop me” will be deleted.');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByTestId('delete-clip-dialog')).not.toBeInTheDocument());
    expect(api.count('DELETE', '/api/clips/c2')).toBe(0);
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Delete Drop me' })));

    fireEvent.click(screen.getByRole('button', { name: 'Delete Drop me' }));
    fireEvent.click(within(await screen.findByTestId('delete-clip-dialog')).getByRole('button', { name: 'Delete clip' }));
    await waitFor(() => expect(getToasts()[0]).toMatchObject({ title: 'Delete failed', description: 'Failed to delete clip', variant: 'destructive' }));
    expect(screen.getByText('Drop me')).toBeInTheDocument();

    deleteOk = true;
    fireEvent.click(screen.getByRole('button', { name: 'Delete Drop me' }));
    fireEvent.click(within(await screen.findByTestId('delete-clip-dialog')).getByRole('button', { name: 'Delete clip' }));
    await waitFor(() => expect(getToasts()[0]).toMatchObject({ title: 'Clip deleted', description: 'Drop me was deleted.' }));
    await waitFor(() => expect(screen.queryByText('Drop me')).not.toBeInTheDocument());
    expect(screen.getByText('Keep me')).toBeInTheDocument();
    expect(api.count('DELETE', '/api/clips/c2')).toBe(2);
    // the deleted row's place is taken by the last one left: its Delete button has focus
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Delete Keep me' })));
  });
});

describe('export quota exceeded', () => {
  /** A smaller tree: the clip parts with a provided quota, no editor page around them. */
  function renderPanel(quota: { exportsPerMonth: number | null; exportsThisMonth: number }) {
    const workspace = new WorkspaceStore();
    function Panel() {
      const [client] = useState(createQueryClient);
      return (
        <QueryClientProvider client={client}>
          <TooltipProvider>
            <WorkspaceContext.Provider value={workspace}>
              <ExportQuotaContext.Provider value={quota}>
                <ClipsPanel videoId={VIDEO_ID} />
              </ExportQuotaContext.Provider>
            </WorkspaceContext.Provider>
          </TooltipProvider>
        </QueryClientProvider>
      );
    }
    render(<Panel />);
    return workspace;
  }

  // the tooltip measures its trigger: jsdom-polyfills (imported first) gives jsdom a ResizeObserver

  it('the Quick Export buttons are aria-disabled, explain why on focus, and create nothing', async () => {
    const api = routes(() => [], { 'POST /api/clips': () => reply(201, { id: 'x', jobId: 'x', name: 'x', aspectRatio: '1:1' }) });
    const workspace = renderPanel({ exportsPerMonth: 10, exportsThisMonth: 10 });
    act(() => workspace.update({ selectionRange: { start: 0.5, end: 1.4 } }));
    const buttons = ['square', 'story', 'landscape'].map((k) => screen.getByTestId(`quick-export-${k}`));
    for (const b of buttons) expect(b).toHaveAttribute('aria-disabled', 'true');

    act(() => buttons[1]!.focus());
    expect(await screen.findByRole('tooltip')).toHaveTextContent('Export limit reached. Please upgrade your plan.');

    fireEvent.click(buttons[1]!);
    expect(getToasts()[0]).toMatchObject({ title: 'Export limit reached', description: 'Export limit reached. Please upgrade your plan.', variant: 'destructive' });
    await waitFor(() => expect(api.count('GET', clipsPath)).toBe(1));
    expect(api.count('POST', '/api/clips')).toBe(0);
  });

  it('below the limit the buttons work as usual', async () => {
    const api = routes(() => [], { 'POST /api/clips': () => reply(201, { id: 'x', jobId: 'j', name: 'Square Clip', aspectRatio: '1:1' }) });
    const workspace = renderPanel({ exportsPerMonth: 10, exportsThisMonth: 8 });
    act(() => workspace.update({ selectionRange: { start: 2, end: 3.4 } }));
    const square = screen.getByTestId('quick-export-square');
    expect(square).toHaveAttribute('aria-disabled', 'false');
    fireEvent.click(square);
    await waitFor(() => expect(api.count('POST', '/api/clips')).toBe(1));
    expect(bodyOf(api, 'POST', '/api/clips')).toMatchObject({ startTime: 2, endTime: 3.4, aspectRatio: '1:1' });
  });
});
