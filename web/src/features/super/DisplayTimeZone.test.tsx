import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useEffect } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatDateTime } from '@/app/format';
import { jsonResponse, ok, Providers } from '@/test/renderApp';
import { DisplayTimeZone, TIME_ZONE_KEY } from './DisplayTimeZone';

const T = Date.UTC(2026, 0, 5, 8, 0, 0);

/** /system-config answers only when `answer` is called. */
function slowConfig(zone: string) {
  let answer = () => {};
  vi.stubGlobal(
    'fetch',
    vi.fn(
      () =>
        new Promise<Response>((resolve) => {
          answer = () => resolve(jsonResponse(ok({ time_zone: zone })));
        }),
    ),
  );
  return () => answer();
}

function Screen({ mounted }: { mounted: () => void }) {
  useEffect(mounted, [mounted]);
  return (
    <>
      <input aria-label="Note" />
      <span>{formatDateTime(T)}</span>
    </>
  );
}

afterEach(() => vi.unstubAllGlobals());

describe('DisplayTimeZone', () => {
  it('on a first visit waits for the zone, so what the user types is not lost when it comes', async () => {
    const answer = slowConfig('Asia/Yangon');
    const mounted = vi.fn();
    render(
      <Providers>
        <DisplayTimeZone>
          <Screen mounted={mounted} />
        </DisplayTimeZone>
      </Providers>,
    );
    expect(screen.queryByRole('textbox', { name: 'Note' })).toBeNull();
    answer();
    const box = await screen.findByRole('textbox', { name: 'Note' });
    await userEvent.type(box, 'typed');
    // Yangon is UTC+6:30.
    expect(screen.getByText('2026-01-05 14:30:00')).toBeInTheDocument();
    expect(box).toHaveValue('typed');
    expect(mounted).toHaveBeenCalledTimes(1);
  });

  it('draws at once in the zone remembered from the last visit', () => {
    localStorage.setItem(TIME_ZONE_KEY, JSON.stringify('Asia/Yangon'));
    slowConfig('Asia/Yangon');
    render(
      <Providers>
        <DisplayTimeZone>
          <Screen mounted={() => {}} />
        </DisplayTimeZone>
      </Providers>,
    );
    expect(screen.getByText('2026-01-05 14:30:00')).toBeInTheDocument();
  });
});
