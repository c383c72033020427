/** @jest-environment jsdom */
import './jsdom-polyfills';
import '@testing-library/jest-dom';
import { act, fireEvent, screen } from '@testing-library/react';
import { useQueryClient } from '@tanstack/react-query';
import { videoSchema } from '@wordcut/contracts';
import { decodeTokenClaims } from '@wordcut/publishing';
import { dismissToast, toast } from '../toast';
import { Tooltip } from '../tooltip';
import { VIDEO_ID, makeToken, makeVideo, recordToasts, renderWithProviders, reply, routeFetch } from './fixtures';

/** The shared spec helpers behave as the web apps' specs rely on. */

describe('makeVideo', () => {
  it('is a video record the contract accepts, with the patch applied', () => {
    const video = makeVideo({ title: 'Other', providerSessionId: 'sess-1' });
    expect(videoSchema.parse(video)).toEqual(video);
    expect(video).toMatchObject({ id: VIDEO_ID, title: 'Other', providerSessionId: 'sess-1', status: 'completed' });
  });
});

describe('makeToken', () => {
  it('is a JWT whose claims the browser reads', () => {
    expect(decodeTokenClaims(makeToken({ sessionId: 'sess-1', plan: { tier: 'pro' } }))).toEqual({ sessionId: 'sess-1', plan: { tier: 'pro' } });
  });
});

describe('routeFetch', () => {
  it('answers by method and path whatever the query, and records each call with its body and authorization', async () => {
    const calls = routeFetch({
      'GET /api/things': () => reply(200, [1, 2]),
      'POST /api/things': async (_url, init) => reply(201, JSON.parse(String(init?.body))),
    });
    const list = await fetch('/api/things?page=2');
    expect(await list.json()).toEqual([1, 2]);
    const created = await fetch('/api/things', { method: 'POST', body: JSON.stringify({ name: 'a' }), headers: { authorization: 'Bearer t' } });
    expect(created).toMatchObject({ ok: true, status: 201 });
    expect(calls.count('GET', '/api/things')).toBe(1);
    expect(calls.bodies('POST', '/api/things')).toEqual([{ name: 'a' }]);
    expect(calls.authOf(calls.calls[1]!)).toBe('Bearer t');
  });

  it('answers 404 with a JSON error for a route it does not know', async () => {
    routeFetch({});
    const res = await fetch('/api/nowhere', { method: 'DELETE' });
    expect(res).toMatchObject({ ok: false, status: 404 });
    expect(await res.text()).toContain('no route DELETE /api/nowhere');
  });
});

describe('recordToasts', () => {
  it('records every toast raised, in order, until stopped', () => {
    dismissToast();
    const toasts = recordToasts();
    act(() => void toast({ title: 'One' }));
    act(() => void toast({ title: 'Two', description: 'second', variant: 'destructive' }));
    toasts.stop();
    act(() => void toast({ title: 'Three' }));
    expect(toasts.all).toEqual([
      { title: 'One', description: undefined, variant: 'default' },
      { title: 'Two', description: 'second', variant: 'destructive' },
    ]);
    dismissToast();
  });
});

describe('renderWithProviders', () => {
  it('gives the tree the returned QueryClient and the tooltip provider', async () => {
    let seen: unknown = null;
    function Probe() {
      seen = useQueryClient();
      return (
        <Tooltip content="Help">
          <button type="button">Trigger</button>
        </Tooltip>
      );
    }
    const { queryClient } = renderWithProviders(<Probe />);
    expect(seen).toBe(queryClient);
    fireEvent.focus(screen.getByRole('button', { name: 'Trigger' }));
    expect(await screen.findByRole('tooltip')).toHaveTextContent('Help');
  });
});
