/** @jest-environment jsdom */
import '@wordcut/ui/src/testing/jsdom-polyfills';
import '@testing-library/jest-dom';
import { useState } from 'react';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { ConfirmDialog } from './dialogs';

/** A page with a button that opens a confirmation by state (as the transcript toolbar does). */
function Page({ onConfirm }: { onConfirm: () => void }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Remove Filler Words
      </button>
      <ConfirmDialog
        open={open}
        title="Remove Filler Words"
        description="5 filler words will be cut from the video."
        confirmLabel="Remove"
        onConfirm={() => {
          onConfirm();
          setOpen(false);
        }}
        onCancel={() => setOpen(false)}
      />
    </>
  );
}

/** Renders the page and opens the dialog from the keyboard (focus on the button, then activate it). */
function openFromKeyboard(onConfirm: () => void): HTMLElement {
  render(<Page onConfirm={onConfirm} />);
  const opener = screen.getByRole('button', { name: 'Remove Filler Words' });
  opener.focus();
  fireEvent.click(opener);
  return opener;
}

describe('ConfirmDialog', () => {
  it('traps focus inside, Escape cancels, and focus goes back to the button that opened it', async () => {
    const onConfirm = jest.fn();
    const opener = openFromKeyboard(onConfirm);
    const dialog = await screen.findByRole('alertdialog', { name: 'Remove Filler Words' });
    expect(dialog).toHaveAccessibleDescription('5 filler words will be cut from the video.');
    await waitFor(() => expect(dialog).toContainElement(document.activeElement as HTMLElement));
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(onConfirm).not.toHaveBeenCalled();
    expect(opener).toHaveFocus();
  });

  it('confirming runs the action and also gives focus back', async () => {
    const onConfirm = jest.fn();
    const opener = openFromKeyboard(onConfirm);
    fireEvent.click(await screen.findByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(onConfirm).toHaveBeenCalledTimes(1);
    expect(opener).toHaveFocus();
  });
});
