import type { TelegramSettingsView } from '@shared/schemas/telegram';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Outlet } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildRouteObjects } from '@/app/router';
import { jsonResponse, renderRoutes, superUser } from '@/test/renderApp';
import { stubApi } from '@/test/stubApi';

vi.setConfig({ testTimeout: 60_000 });
afterEach(() => vi.unstubAllGlobals());

const view = (over: Partial<TelegramSettingsView> = {}): TelegramSettingsView => ({
  bot_token: '12***yz',
  bot_token_set: true,
  check_chat_id: '-1001234567890',
  bank_chat_id: '',
  check_enabled: true,
  bank_enabled: false,
  per_subtask: false,
  escalation_chat_id: '',
  channels: {
    check: { state: 'ok', reason: null, at: 1 },
    bank: { state: 'unknown', reason: null, at: null },
  },
  webhook: { state: 'ok', url: 'http://127.0.0.1:3000/webhook/telegram', reason: null, at: 1 },
  updated_at: 1_700_000_000_000,
  updated_by: { nickname: 'Sam' },
  ...over,
});

const open = () => renderRoutes(buildRouteObjects(undefined, <Outlet />), '/super/notification/tg', superUser);

describe('TG notification page', () => {
  it('shows the token only masked, and saves without it unless a new one is typed', async () => {
    const api = stubApi({
      'GET /super/notification/tg': () => view(),
      'PUT /super/notification/tg': ({ body }) => ({ ...view(), ...(body as object), bot_token: '12***yz' }),
    });
    const user = userEvent.setup();
    open();
    const token = await screen.findByLabelText('Bot token');
    expect(token).toHaveValue('');
    expect(token).toHaveAttribute('placeholder', '12***yz');
    expect(screen.getByText('Stored encrypted (12***yz). Leave empty to keep it.')).toBeInTheDocument();

    await user.click(screen.getByRole('switch', { name: 'A message for every finished subtask' }));
    await user.type(screen.getByLabelText('Escalation chat ID'), '-1009876');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.callsTo('PUT', '/super/notification/tg')).toHaveLength(1));
    expect(api.callsTo('PUT', '/super/notification/tg')[0].body).toEqual({
      check_chat_id: '-1001234567890',
      bank_chat_id: '',
      check_enabled: true,
      bank_enabled: false,
      per_subtask: true,
      escalation_chat_id: '-1009876',
    });

    await user.type(token, '123456:AAF-new_token_value_abcdefghijk');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.callsTo('PUT', '/super/notification/tg')).toHaveLength(2));
    expect(api.callsTo('PUT', '/super/notification/tg')[1].body).toMatchObject({
      bot_token: '123456:AAF-new_token_value_abcdefghijk',
    });
  });

  it('refuses to switch a category on without its chat, and sends nothing', async () => {
    const api = stubApi({ 'GET /super/notification/tg': () => view() });
    const user = userEvent.setup();
    open();
    const bank = await screen.findByRole('region', { name: 'Bank notifications' });
    await user.click(within(bank).getByRole('switch'));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await within(bank).findByText('Please enter the chat id of this category first')).toBeInTheDocument();
    expect(api.callsTo('PUT', '/super/notification/tg')).toHaveLength(0);
  });

  it('sends a test message and shows what Telegram answered, refusals included', async () => {
    let answer: unknown = {
      category: 'check',
      chat_id: '-1001234567890',
      ok: true,
      answer: { ok: true, result: { message_id: 41, chat: { id: -1001234567890 } } },
      error: null,
    };
    const api = stubApi({
      'GET /super/notification/tg': () => view(),
      'POST /super/notification/tg/test': () => answer,
    });
    const user = userEvent.setup();
    open();
    const check = await screen.findByRole('region', { name: 'Check notifications' });
    await user.click(within(check).getByRole('button', { name: /Send test message/ }));
    expect(await screen.findByText('Delivered to chat -1001234567890')).toBeInTheDocument();
    expect(screen.getByText(/"message_id": 41/)).toBeInTheDocument();
    expect(api.callsTo('POST', '/super/notification/tg/test')[0].body).toEqual({ category: 'check' });

    answer = {
      category: 'check',
      chat_id: '-1001234567890',
      ok: false,
      answer: { ok: false, error_code: 403, description: 'Forbidden: bot was kicked from the group chat' },
      error: '403 Forbidden: bot was kicked from the group chat',
    };
    await user.click(within(check).getByRole('button', { name: /Send test message/ }));
    expect(
      await screen.findByText(
        'Not delivered to chat -1001234567890: 403 Forbidden: bot was kicked from the group chat',
      ),
    ).toBeInTheDocument();
  });

  it('offers no test for a category whose chat is not saved', async () => {
    stubApi({ 'GET /super/notification/tg': () => view() });
    open();
    const bank = await screen.findByRole('region', { name: 'Bank notifications' });
    expect(within(bank).getByRole('button', { name: /Send test message/ })).toBeDisabled();
  });

  it('shows a chat Telegram refused as Failed with the reason', async () => {
    stubApi({
      'GET /super/notification/tg': () =>
        view({
          channels: {
            check: { state: 'failed', reason: '403 Forbidden: bot was blocked by the user', at: 2 },
            bank: { state: 'unknown', reason: null, at: null },
          },
        }),
    });
    open();
    const check = await screen.findByRole('region', { name: 'Check notifications' });
    expect(within(check).getByText('Failed')).toBeInTheDocument();
    expect(within(check).getByText('403 Forbidden: bot was blocked by the user')).toBeInTheDocument();
  });

  it('is refused by the server to anyone but a super user (the page shows the failure)', async () => {
    stubApi({
      'GET /super/notification/tg': () => jsonResponse({ code: 4030, msg: 'Permission denied.', request_id: 'r' }, 403),
    });
    open();
    expect((await screen.findAllByText('Permission denied.'))[0]).toBeInTheDocument();
  });
});
