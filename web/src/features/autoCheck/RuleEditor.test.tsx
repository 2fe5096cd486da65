import { DEFAULT_SYSTEM_CONFIG } from '@shared/schemas/systemConfig';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { findToast, operator, renderRoutes } from '@/test/renderApp';
import { stubApi } from '@/test/stubApi';
import NewRulePage from './NewRulePage';

vi.setConfig({ testTimeout: 60_000 });
afterEach(() => vi.unstubAllGlobals());

const sites = [
  { id: 1, name: 'alpha', url: 'https://alpha.test', available_account_cnt: 1, enable: true, created_at: 2 },
  { id: 2, name: 'bravo', url: 'https://bravo.test', available_account_cnt: 1, enable: true, created_at: 1 },
];

function renderNewRule() {
  const api = stubApi({
    'GET /system-config': () => ({ ...DEFAULT_SYSTEM_CONFIG, time_zone: 'Asia/Yangon' }),
    'GET /sites': () => ({ result: sites, total_count: 2, page: 1, page_size: 20 }),
    'POST /auto-check/rules': (call) => ({ id: 9, ...(call.body as object) }),
  });
  const view = renderRoutes(
    [
      { path: '/auto-checks/new', element: <NewRulePage /> },
      { path: '/auto-checks/rules', element: <p>Rules list</p> },
      { path: '/sites', element: <p>Sites screen</p> },
    ],
    '/auto-checks/new',
    operator,
  );
  return { ...view, api, user: userEvent.setup({ delay: null }) };
}

const stepButton = (n: number, title: string) => screen.getByRole('button', { name: new RegExp(`${n}\\. ${title}`) });

describe('New rule stepper', () => {
  it('flags a step after it was left invalid, and clears the flag when it is fixed', async () => {
    const { user } = renderNewRule();
    await screen.findByRole('textbox', { name: /Rule Name/ });
    expect(stepButton(1, 'Name')).not.toHaveAttribute('aria-invalid');

    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(stepButton(1, 'Name')).toHaveAttribute('aria-invalid', 'true');
    expect(stepButton(1, 'Name')).toHaveTextContent('Please enter rule name');
    // Step 2 is shown and not left yet: no flag.
    expect(stepButton(2, 'Sites')).not.toHaveAttribute('aria-invalid');

    await user.click(stepButton(3, 'Checkpoints'));
    expect(stepButton(2, 'Sites')).toHaveAttribute('aria-invalid', 'true');
    expect(stepButton(3, 'Checkpoints')).not.toHaveAttribute('aria-invalid');

    await user.click(stepButton(1, 'Name'));
    await user.type(screen.getByRole('textbox', { name: /Rule Name/ }), 'Morning');
    expect(stepButton(1, 'Name')).not.toHaveAttribute('aria-invalid');
    expect(stepButton(3, 'Checkpoints')).toHaveAttribute('aria-invalid', 'true');
  });

  it("warns 'Please reconfirm you configuration again.' on an invalid save and flags every invalid step", async () => {
    const { user, api } = renderNewRule();
    await user.type(await screen.findByRole('textbox', { name: /Rule Name/ }), 'Morning');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await findToast('Please reconfirm you configuration again.')).toBeInTheDocument();
    expect(stepButton(1, 'Name')).not.toHaveAttribute('aria-invalid');
    for (const [n, title] of [
      [2, 'Sites'],
      [3, 'Checkpoints'],
      [4, 'Times'],
    ] as const) {
      expect(stepButton(n, title)).toHaveAttribute('aria-invalid', 'true');
    }
    expect(api.callsTo('POST', '/auto-check/rules')).toHaveLength(0);
  });

  it("offers a new time slot only when every slot is filled, and says 'Fill or delete' on an empty one", async () => {
    const { user } = renderNewRule();
    await screen.findByRole('textbox', { name: /Rule Name/ });
    await user.click(stepButton(4, 'Times'));
    expect(screen.getByText('Times are 24-hour times in Asia/Yangon')).toBeInTheDocument();
    const monday = screen.getByRole('listitem', { name: 'Monday' });
    expect(within(monday).getByText('No Check Time')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Add time on Monday' }));
    expect(within(monday).getByText('Fill or delete')).toBeInTheDocument();
    const addTuesday = screen.getByRole('button', { name: 'Add time on Tuesday' });
    expect(addTuesday).toHaveAttribute('aria-disabled', 'true');
    await user.click(addTuesday);
    expect(within(screen.getByRole('listitem', { name: 'Tuesday' })).queryByRole('combobox')).toBeNull();

    const slot = within(monday).getByRole('combobox', { name: 'Monday time 1' });
    await user.type(slot, '930');
    await user.tab();
    expect(slot).toHaveValue('09:30');
    expect(within(monday).queryByText('Fill or delete')).toBeNull();
    expect(screen.getByRole('button', { name: 'Add time on Tuesday' })).not.toHaveAttribute('aria-disabled');

    await user.click(screen.getByRole('button', { name: 'Delete Monday time 1' }));
    expect(within(monday).getByText('No Check Time')).toBeInTheDocument();
  });
});

describe('Leaving the rule page', () => {
  it('asks before an in-app move loses changes, and stays or leaves as answered', async () => {
    const { user, router } = renderNewRule();
    await user.type(await screen.findByRole('textbox', { name: /Rule Name/ }), 'Morning');

    void router.navigate('/sites');
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog).toHaveTextContent('Do you want to leave? you will lose all changes!');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel', hidden: true }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(router.state.location.pathname).toBe('/auto-checks/new');
    expect(screen.getByRole('textbox', { name: /Rule Name/ })).toHaveValue('Morning');

    void router.navigate('/sites');
    await user.click(
      within(await screen.findByRole('alertdialog', { hidden: true })).getByRole('button', {
        name: 'Confirm',
        hidden: true,
      }),
    );
    expect(await screen.findByText('Sites screen')).toBeInTheDocument();
  });

  it('lets the page go without asking when nothing changed', async () => {
    const { router } = renderNewRule();
    await screen.findByRole('textbox', { name: /Rule Name/ });
    void router.navigate('/sites');
    expect(await screen.findByText('Sites screen')).toBeInTheDocument();
  });

  it('asks the browser to confirm closing the tab while there are unsaved changes', async () => {
    const { user } = renderNewRule();
    const closing = () => {
      const event = new Event('beforeunload', { cancelable: true });
      window.dispatchEvent(event);
      return event.defaultPrevented;
    };
    await screen.findByRole('textbox', { name: /Rule Name/ });
    expect(closing()).toBe(false);
    await user.type(screen.getByRole('textbox', { name: /Rule Name/ }), 'M');
    expect(closing()).toBe(true);
  });

  it('saves a complete rule and goes to the list without asking', async () => {
    const { user, api } = renderNewRule();
    await user.type(await screen.findByRole('textbox', { name: /Rule Name/ }), ' Morning ');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    const table = await screen.findByRole('table', { name: 'Sites' });
    await within(table).findByText('alpha');
    await user.click(within(table).getAllByRole('checkbox', { name: 'Select row' })[1]);
    expect(screen.getByText('Selected sites (1)')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(screen.getByRole('checkbox', { name: 'Login Account: D4' }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(screen.getByRole('button', { name: 'Add time on Friday' }));
    await user.type(screen.getByRole('combobox', { name: 'Friday time 1' }), '18:45');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    const next = screen.getByRole('region', { name: 'Next runs' });
    expect(within(next).getAllByRole('listitem')).toHaveLength(5);
    expect(within(next).getAllByRole('listitem')[0]).toHaveTextContent(/^Friday \d{4}-\d{2}-\d{2} 18:45:00$/);

    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Rules list')).toBeInTheDocument();
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(api.callsTo('POST', '/auto-check/rules')[0]?.body).toEqual({
      name: ' Morning ',
      sites: [2],
      points: [{ point: 1, modes: [1] }],
      times: [{ day: 5, times: ['18:45'] }],
    });
    expect(await findToast('Create new rule Morning success.')).toBeInTheDocument();
  });
});
