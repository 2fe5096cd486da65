import { useQuery } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { findToast, jsonResponse, Providers } from '@/test/renderApp';
import { queryKeys } from './queryKeys';
import { request } from './request';

const fetchMock = vi.fn<typeof fetch>();

beforeEach(() => vi.stubGlobal('fetch', fetchMock));
afterEach(() => {
  fetchMock.mockReset();
  vi.unstubAllGlobals();
});

function Sites() {
  const sites = useQuery({
    queryKey: queryKeys.lists('sites'),
    queryFn: ({ signal }) => request<unknown[]>({ url: '/sites', signal, failureTip: 'Fetch sites failed.' }),
  });
  return <p>{sites.isError ? 'failed' : 'loading'}</p>;
}

/** Toast titles on screen with this text (the screen-reader announcement repeats it elsewhere). */
const toastTitles = (text: string) =>
  screen.queryAllByText(text).filter((el) => el.closest('.fui-ToastTitle') !== null).length;

describe('queries on failure', () => {
  it.each([
    ['a server error', () => jsonResponse({ code: 5000, msg: 'boom' }, 500)],
    ['a network error', () => Promise.reject(new TypeError('Failed to fetch'))],
  ])('ask once and show one failure tip after %s (spec section 8: no retry)', async (_, answer) => {
    fetchMock.mockImplementation(async () => answer());
    render(
      <Providers>
        <Sites />
      </Providers>,
    );
    expect(await findToast('Fetch sites failed.')).toBeInTheDocument();
    expect(await screen.findByText('failed')).toBeInTheDocument();
    // Longer than TanStack's first retry delay (1 s): a retry would have fired by now.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(toastTitles('Fetch sites failed.')).toBe(1);
  });
});
