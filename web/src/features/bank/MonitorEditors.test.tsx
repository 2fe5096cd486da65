import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { Providers } from '@/test/renderApp';
import { MonitorIntervalEditor } from './MonitorIntervalEditor';
import { MonitorRangeEditor } from './MonitorRangeEditor';

vi.setConfig({ testTimeout: 60_000 });

const H = 3600;

function renderRanges(value: [number, number][]) {
  const onSave = vi.fn(async (_: [number, number][]) => undefined);
  const user = userEvent.setup({ delay: null });
  render(
    <Providers>
      <MonitorRangeEditor value={value} timeZone="Asia/Yangon" onSave={onSave} />
    </Providers>,
  );
  const pick = (group: string, part: 'Hour' | 'Minute' | 'Second', to: string) =>
    user.selectOptions(screen.getByRole('combobox', { name: `${group} ${part}` }), to);
  return { user, onSave, pick };
}

describe('Monitor range editor', () => {
  it('shows each range in 24-hour time with seconds, beside the configured time zone', () => {
    renderRanges([[13 * H + 5, 23 * H + 59 * 60 + 59]]);
    expect(screen.getByText('Time zone Asia/Yangon')).toBeInTheDocument();
    const start = screen.getByRole('group', { name: 'Start 1' });
    expect(within(start).getByRole('combobox', { name: 'Start 1 Hour' })).toHaveValue('13');
    expect(within(start).getByRole('combobox', { name: 'Start 1 Second' })).toHaveValue('05');
    const end = screen.getByRole('group', { name: 'End 1' });
    expect(within(end).getByRole('combobox', { name: 'End 1 Hour' })).toHaveValue('23');
    // 24 hours, no AM/PM; the end also offers 24:00:00, the end of the day.
    const hours = (name: string) =>
      within(screen.getByRole('combobox', { name }))
        .getAllByRole('option')
        .map((o) => o.textContent);
    expect(hours('Start 1 Hour')).toEqual(Array.from({ length: 24 }, (_, i) => String(i).padStart(2, '0')));
    expect(hours('End 1 Hour').at(-1)).toBe('24');
  });

  it('does nothing when the saved ranges are saved again, even after an edit that was undone', async () => {
    const { user, onSave, pick } = renderRanges([[10 * H, 12 * H]]);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await pick('Start 1', 'Hour', '09');
    await pick('Start 1', 'Hour', '10');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSave).not.toHaveBeenCalled();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('refuses overlapping ranges with the shared rule’s message and sends nothing', async () => {
    const { user, onSave, pick } = renderRanges([[10 * H, 12 * H]]);
    await user.click(screen.getByRole('button', { name: 'Add range' }));
    // The new row starts where the last one ends (12:00:00-13:00:00); move it into the first.
    await pick('Start 2', 'Hour', '11');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Ranges must not overlap');
    expect(onSave).not.toHaveBeenCalled();
  });

  it('refuses a range that ends before it starts', async () => {
    const { user, onSave, pick } = renderRanges([[10 * H, 12 * H]]);
    await pick('End 1', 'Hour', '09');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The start of a range must be before its end');
    expect(onSave).not.toHaveBeenCalled();
  });

  it('sends changed ranges as seconds of the day, sorted by start, with 24:00:00 as 86400', async () => {
    const { user, onSave, pick } = renderRanges([[10 * H, 12 * H]]);
    await user.click(screen.getByRole('button', { name: 'Add range' }));
    await pick('End 2', 'Hour', '24');
    await pick('Start 1', 'Hour', '00');
    await pick('Start 1', 'Second', '30');
    await pick('End 1', 'Hour', '01');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await vi.waitFor(() => expect(onSave).toHaveBeenCalledTimes(1));
    expect(onSave).toHaveBeenCalledWith([
      [30, H],
      [12 * H, 86_400],
    ]);
  });

  it('removes a range and saves none', async () => {
    const { user, onSave } = renderRanges([[10 * H, 12 * H]]);
    await user.click(screen.getByRole('button', { name: 'Remove range 1' }));
    expect(screen.getByText('No range: the account is never polled.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await vi.waitFor(() => expect(onSave).toHaveBeenCalledWith([]));
  });
});

describe('Monitor interval editor', () => {
  function renderInterval(value = 30) {
    const onSave = vi.fn(async (_: number) => undefined);
    const user = userEvent.setup({ delay: null });
    render(
      <Providers>
        <MonitorIntervalEditor value={value} onSave={onSave} />
      </Providers>,
    );
    return { user, onSave, input: screen.getByRole('spinbutton', { name: /Monitor Interval/ }) };
  }

  it.each(['4', '121', '', '7.5'])('refuses %j with the spec’s text', async (typed) => {
    const { user, onSave, input } = renderInterval();
    await user.clear(input);
    if (typed) await user.type(input, typed);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByText('Must between 5 and 120')).toBeInTheDocument();
    expect(onSave).not.toHaveBeenCalled();
  });

  it('sends a new value in range and nothing when it is unchanged', async () => {
    const { user, onSave, input } = renderInterval(30);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSave).not.toHaveBeenCalled();
    await user.clear(input);
    await user.type(input, '5');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await vi.waitFor(() => expect(onSave).toHaveBeenCalledWith(5));
  });
});
