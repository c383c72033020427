/** @jest-environment jsdom */
import '@wordcut/ui/src/testing/jsdom-polyfills';
import '@testing-library/jest-dom';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { sessionStore } from '@wordcut/ui';
import { SESSION_ID, VIDEO_ID, clipsPath, makeVideo, renderPublish, reply, routeFetch, sessionToken, signedInWithToasts, videoPath } from './testing/fixtures';
import type { Handler } from './testing/fixtures';

/**
 * 'Revert to Original': confirmation, the blocking 'Resetting Session' dialog, then the token
 * refresh, the cache reset and the toasts.
 */

const TOKEN = sessionToken();
const FRESH = sessionToken({ iat: 99 });
const RESET = `/api/provider/sessions/${SESSION_ID}/reset`;
const refreshAnswer = () =>
  reply(200, {
    newToken: FRESH,
    plan: { tier: 'pro', quotas: { exportsPerDay: 10, exportsPerMonth: 100 } },
    usage: { exportsToday: 0, maxPerDay: 10, exportsThisMonth: 0, maxPerMonth: 100, nextDailyReset: 'a', nextMonthlyReset: 'b' },
  });

function api(reset: Handler, refresh: Handler = refreshAnswer) {
  return routeFetch({
    [`GET ${videoPath}`]: () => reply(200, makeVideo()),
    [`GET ${clipsPath}`]: () => reply(200, []),
    [`POST ${RESET}`]: reset,
    'POST /api/wordcut/refresh-token': refresh,
  });
}

const toasts = signedInWithToasts(TOKEN);

async function confirmRevert() {
  fireEvent.click(await screen.findByRole('button', { name: 'Revert to Original' }));
  const confirm = await screen.findByRole('alertdialog', { name: 'Are you sure you want to revert to the original?' });
  expect(confirm).toHaveAccessibleDescription('This will delete all clips and changes.');
  return confirm;
}

it('Cancel closes the confirmation and resets nothing', async () => {
  const calls = api(() => reply(200, {}));
  renderPublish();
  (await screen.findByRole('button', { name: 'Revert to Original' })).focus(); // opened from the keyboard
  const confirm = await confirmRevert();
  fireEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
  await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
  expect(calls.count('POST', RESET)).toBe(0);
  // the keyboard user is back on the button that opened it, not at the top of the page
  expect(screen.getByRole('button', { name: 'Revert to Original' })).toHaveFocus();
});

it('OK resets behind the blocking dialog, refreshes the token, clears the cache and toasts Session Reset', async () => {
  let answer: (r: Response) => void = () => undefined;
  const calls = api(() => new Promise<Response>((resolve) => (answer = resolve)));
  renderPublish();
  const confirm = await confirmRevert();
  fireEvent.click(within(confirm).getByRole('button', { name: 'OK' }));
  const blocking = await screen.findByRole('dialog', { name: 'Resetting Session' });
  // blocking: Escape does not close it
  fireEvent.keyDown(blocking, { key: 'Escape' });
  expect(screen.getByRole('dialog', { name: 'Resetting Session' })).toBeInTheDocument();
  const call = calls.calls.find((c) => c.url === RESET)!;
  expect(calls.authOf(call)).toBe(`Bearer ${TOKEN}`);
  expect(JSON.parse(String(call.init?.body))).toEqual({ videoId: VIDEO_ID });
  const videoGets = calls.count('GET', videoPath);

  await act(async () => answer(reply(200, { success: true, filesUpdated: { video: true, transcript: true }, message: 'done' })));
  await waitFor(() => expect(toasts.all.at(-1)).toEqual({ title: 'Session Reset', description: 'Video and transcript files updated', variant: 'default' }));
  expect(calls.count('POST', '/api/wordcut/refresh-token')).toBe(1);
  expect(sessionStore.get().token).toBe(FRESH);
  // the cache was cleared: the video on screen is fetched again
  expect(calls.count('GET', videoPath)).toBeGreaterThan(videoGets);
  await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Resetting Session' })).not.toBeInTheDocument());
});

it.each([
  [{ video: true, transcript: false }, 'Video file updated'],
  [{ video: false, transcript: true }, 'Transcript file updated'],
  [{ video: false, transcript: false }, 'No file updates needed'],
])('toasts what the reset changed: %j', async (filesUpdated, text) => {
  api(() => reply(200, { success: true, filesUpdated, message: 'ok' }));
  renderPublish();
  fireEvent.click(within(await confirmRevert()).getByRole('button', { name: 'OK' }));
  await waitFor(() => expect(toasts.all.at(-1)).toMatchObject({ title: 'Session Reset', description: text }));
});

it("says 'Reset Completed' when the reset worked but the token could not be refreshed", async () => {
  api(
    () => reply(200, { success: true, filesUpdated: { video: true, transcript: false }, message: 'ok' }),
    () => reply(503, 'down'),
  );
  renderPublish();
  fireEvent.click(within(await confirmRevert()).getByRole('button', { name: 'OK' }));
  await waitFor(() => expect(toasts.all.at(-1)).toMatchObject({ title: 'Reset Completed', description: 'Session reset but some updates may be delayed' }));
});

it("toasts 'Reset Failed' with the server's message, else 'Failed to reset session'", async () => {
  let answer = () => reply(403, { statusCode: 403, error: 'forbidden', message: 'This session token is for another session.' });
  const calls = api(() => answer());
  renderPublish();
  fireEvent.click(within(await confirmRevert()).getByRole('button', { name: 'OK' }));
  await waitFor(() => expect(toasts.all.at(-1)).toEqual({ title: 'Reset Failed', description: 'This session token is for another session.', variant: 'destructive' }));
  await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Resetting Session' })).not.toBeInTheDocument());
  expect(calls.count('POST', '/api/wordcut/refresh-token')).toBe(0);

  answer = () => reply(502, '<html>Bad gateway</html>');
  fireEvent.click(within(await confirmRevert()).getByRole('button', { name: 'OK' }));
  await waitFor(() => expect(toasts.all.at(-1)).toMatchObject({ title: 'Reset Failed', description: 'Failed to reset session' }));
});

it("without a token says 'JWT token required'", async () => {
  const calls = api(() => reply(200, {}));
  renderPublish();
  const confirm = await confirmRevert();
  act(() => sessionStore.clear());
  fireEvent.click(within(confirm).getByRole('button', { name: 'OK' }));
  await waitFor(() => expect(toasts.all.at(-1)).toMatchObject({ title: 'Reset Failed', description: 'JWT token required' }));
  expect(calls.count('POST', RESET)).toBe(0);
});
