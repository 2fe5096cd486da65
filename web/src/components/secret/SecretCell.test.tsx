import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { setAuth } from '@/app/auth';
import { operator } from '@/test/renderApp';
import { SECRET_MASK, SecretCell } from './SecretCell';

describe('SecretCell', () => {
  beforeEach(() => setAuth(operator));

  it('shows a viewer the mask alone, with no eye to ask the server', () => {
    setAuth({ ...operator, s: 'viewer' });
    const reveal = vi.fn();
    render(<SecretCell reveal={reveal} />);
    expect(screen.getByText(SECRET_MASK)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Show password' })).not.toBeInTheDocument();
    expect(reveal).not.toHaveBeenCalled();
  });

  it('shows a mask until the eye asks the server, then the value, and forgets it when hidden', async () => {
    const user = userEvent.setup();
    const reveal = vi.fn().mockResolvedValueOnce('first-value').mockResolvedValueOnce('edited-value');
    render(<SecretCell reveal={reveal} />);

    expect(screen.getByText(SECRET_MASK)).toBeInTheDocument();
    expect(reveal).not.toHaveBeenCalled();

    await user.click(screen.getByRole('button', { name: 'Show password' }));
    expect(await screen.findByText('first-value')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Hide password' }));
    expect(screen.getByText(SECRET_MASK)).toBeInTheDocument();
    expect(screen.queryByText('first-value')).not.toBeInTheDocument();

    // Asked again, not cached: a value edited meanwhile is never shown stale.
    await user.click(screen.getByRole('button', { name: 'Show password' }));
    expect(await screen.findByText('edited-value')).toBeInTheDocument();
    expect(reveal).toHaveBeenCalledTimes(2);
  });

  it('offers to copy a revealed value, and nothing while masked', async () => {
    const user = userEvent.setup();
    render(<SecretCell reveal={() => Promise.resolve('whsec_long-enough-to-be-clipped')} />);
    expect(screen.queryByRole('button', { name: 'Copy' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Show password' }));
    await user.click(await screen.findByRole('button', { name: 'Copy' }));
    expect(await navigator.clipboard.readText()).toBe('whsec_long-enough-to-be-clipped');
    await user.click(screen.getByRole('button', { name: 'Hide password' }));
    expect(screen.queryByRole('button', { name: 'Copy' })).not.toBeInTheDocument();
  });

  it('keeps the mask when the server refuses (e.g. 429)', async () => {
    const user = userEvent.setup();
    render(<SecretCell reveal={() => Promise.reject(new Error('Too many'))} />);
    await user.click(screen.getByRole('button', { name: 'Show password' }));
    expect(await screen.findByRole('button', { name: 'Show password' })).toBeEnabled();
    expect(screen.getByText(SECRET_MASK)).toBeInTheDocument();
  });
});
