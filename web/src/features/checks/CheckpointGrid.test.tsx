import { TestFluentProvider } from '@/test/TestFluentProvider';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { CheckpointGrid, type PointModes } from './CheckpointGrid';

vi.setConfig({ testTimeout: 30_000 });

function Harness({ initial, seen }: { initial: PointModes[]; seen: PointModes[][] }) {
  const [value, setValue] = useState<PointModes[]>(initial);
  return (
    <CheckpointGrid
      value={value}
      onChange={(v) => {
        seen.push(v);
        setValue(v);
      }}
    />
  );
}

function renderGrid(initial: PointModes[] = []) {
  const seen: PointModes[][] = [];
  render(
    <TestFluentProvider>
      <Harness initial={initial} seen={seen} />
    </TestFluentProvider>,
  );
  const box = (name: string) => screen.getByRole('checkbox', { name });
  return { user: userEvent.setup({ delay: null }), box, last: () => seen[seen.length - 1] };
}

const D4 = 1;
const TT = 3;

describe('CheckpointGrid', () => {
  it('shows a point ALL box empty, mixed or checked as none, some or all of its modes are chosen', async () => {
    const { user, box } = renderGrid();
    expect(box('Login Account: ALL')).not.toBeChecked();
    expect(box('Login Account: ALL')).not.toBePartiallyChecked();

    await user.click(box('Login Account: D4'));
    expect(box('Login Account: ALL')).toBePartiallyChecked();

    await user.click(box('Login Account: TT'));
    expect(box('Login Account: ALL')).toBeChecked();
  });

  it('sets every mode of a point from its ALL box and clears them when all were set', async () => {
    const { user, box, last } = renderGrid([{ point: 2, modes: [TT] }]);
    expect(box('Place Bets: ALL')).toBePartiallyChecked();

    await user.click(box('Place Bets: ALL'));
    expect(box('Place Bets: D4')).toBeChecked();
    expect(box('Place Bets: TT')).toBeChecked();
    expect(last()).toEqual([{ point: 2, modes: [D4, TT] }]);

    await user.click(box('Place Bets: ALL'));
    expect(box('Place Bets: D4')).not.toBeChecked();
    expect(box('Place Bets: TT')).not.toBeChecked();
    expect(last()).toEqual([]);
  });

  it('marks the D4 and TT masters mixed for some points and checked for all, and sets or clears the column', async () => {
    const { user, box, last } = renderGrid();
    expect(box('D4')).not.toBeChecked();

    await user.click(box('Agent Setting: D4'));
    expect(box('D4')).toBePartiallyChecked();
    expect(box('TT')).not.toBeChecked();

    await user.click(box('D4'));
    expect(box('D4')).toBeChecked();
    expect(box('Login Account: D4')).toBeChecked();
    expect(box('Out Setting3 Status: D4')).toBeChecked();
    expect(box('Login Account: TT')).not.toBeChecked();
    expect(last()).toHaveLength(8);
    expect(last().every((p) => p.modes.join() === String(D4))).toBe(true);

    await user.click(box('D4'));
    expect(box('D4')).not.toBeChecked();
    expect(box('Agent Setting: D4')).not.toBeChecked();
    expect(last()).toEqual([]);
  });

  it('sets and clears every box from the overall ALL, which is mixed in between', async () => {
    const { user, box, last } = renderGrid();
    expect(box('ALL')).not.toBeChecked();

    await user.click(box('TT'));
    expect(box('ALL')).toBePartiallyChecked();

    await user.click(box('ALL'));
    expect(box('ALL')).toBeChecked();
    expect(box('D4')).toBeChecked();
    expect(box('TT')).toBeChecked();
    expect(box('Delete Bets Out: ALL')).toBeChecked();
    expect(last().map((p) => p.point)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);

    await user.click(box('ALL'));
    expect(box('D4')).not.toBeChecked();
    expect(box('Check Fix Bets: ALL')).not.toBeChecked();
    expect(last()).toEqual([]);
  });

  it('shows a choice without letting it change when read-only', () => {
    render(
      <TestFluentProvider>
        <CheckpointGrid value={[{ point: 1, modes: [D4, TT] }]} readOnly />
      </TestFluentProvider>,
    );
    expect(screen.getByRole('checkbox', { name: 'Login Account: ALL' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Login Account: ALL' })).toBeDisabled();
    expect(screen.getByRole('checkbox', { name: 'ALL' })).toBePartiallyChecked();
  });
});
