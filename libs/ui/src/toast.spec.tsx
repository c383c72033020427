/** @jest-environment jsdom */
import '@testing-library/jest-dom';
import { act, render, screen } from '@testing-library/react';
import { Toaster, dismissToast, getToasts, toast } from './toast';

afterEach(() => {
  act(() => dismissToast());
});

describe('toast store', () => {
  it('keeps at most one toast: a new one replaces the old', () => {
    toast({ title: 'First' });
    const second = toast({ title: 'Second', variant: 'destructive' });
    const items = getToasts();
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ id: second.id, title: 'Second', variant: 'destructive', open: true });
  });

  it('defaults to the default variant and can be dismissed', () => {
    const handle = toast({ title: 'Saved' });
    expect(getToasts()[0]?.variant).toBe('default');
    handle.dismiss();
    expect(getToasts()).toHaveLength(0);
  });
});

describe('<Toaster />', () => {
  it('renders only the latest toast', () => {
    render(<Toaster />);
    act(() => {
      toast({ title: 'Upload started', description: 'clip.mp4' });
    });
    expect(screen.getByText('Upload started')).toBeInTheDocument();
    act(() => {
      toast({ title: 'Probe failed', description: 'ffprobe exited with 1', variant: 'destructive' });
    });
    expect(screen.queryByText('Upload started')).not.toBeInTheDocument();
    expect(screen.getByText('Probe failed')).toBeInTheDocument();
    expect(screen.getByText('ffprobe exited with 1')).toBeInTheDocument();
    expect(document.querySelectorAll('.wc-toast')).toHaveLength(1);
    expect(document.querySelector('.wc-toast')).toHaveAttribute('data-variant', 'destructive');
  });

  it('has an F8 hotkey viewport', () => {
    render(<Toaster />);
    expect(screen.getByRole('region', { name: /F8/ })).toBeInTheDocument();
  });
});
