import { applyListQuery } from '@shared/applyListQuery';
import { parseListQuery } from '@shared/listQuery';
import { type ApiToken, apiTokenListFields } from '@shared/schemas/apiTokens';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readPath } from '@/components/table/col';
import { renderTable } from '@/components/table/testTable';
import { superUser } from '@/test/renderApp';
import { apiTokensResource } from './apiTokensResource';

vi.setConfig({ testTimeout: 60_000 });
afterEach(() => vi.unstubAllGlobals());

const NOW = Date.now();
const DAY = 86_400_000;
const TOKEN = `pat_${'x'.repeat(43)}`;
const row = (id: number, name: string, extra: Partial<ApiToken> = {}): ApiToken => ({
  id,
  name,
  scope: 'read',
  prefix: `pat_abcd${id}xyz`,
  expiry: NOW + 30 * DAY,
  last_used_at: null,
  revoked_at: null,
  creator: { nickname: 'Sam' },
  created_at: NOW - id * 1000,
  ...extra,
});
const json = (data: unknown, status = 200) =>
  new Response(JSON.stringify(status === 200 ? { code: 1000, msg: 'SUCCESS', data } : data), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });

/** The three routes of the screen over a list of rows in memory, with what each write was sent. */
function fakeTokensServer(rows: ApiToken[]) {
  const posted: unknown[] = [];
  const deleted: number[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), 'http://localhost');
      const method = init?.method ?? 'GET';
      if (method === 'POST' && url.pathname === '/api/v1/super/tokens') {
        const body = JSON.parse(String(init?.body)) as { name: string; scope: ApiToken['scope']; expires_at: number };
        posted.push(body);
        const made = row(rows.length + 10, body.name, {
          scope: body.scope,
          expiry: body.expires_at,
          prefix: TOKEN.slice(0, 12),
        });
        rows.unshift(made);
        return json({ ...made, token: TOKEN });
      }
      const revoke = /^\/api\/v1\/super\/tokens\/(\d+)$/.exec(url.pathname);
      if (method === 'DELETE' && revoke) {
        const id = Number(revoke[1]);
        deleted.push(id);
        const target = rows.find((r) => r.id === id) as ApiToken;
        target.revoked_at = Date.now();
        return json(target);
      }
      if (url.pathname === '/api/v1/super/tokens')
        return json(applyListQuery(rows, parseListQuery(url.searchParams, apiTokenListFields), readPath));
      return json({ code: 4040, msg: 'Not found.', request_id: 'r' }, 404);
    }),
  );
  return { posted, deleted };
}

/**
 * The open dialog of `role` whose text holds `text`, found by selector: a role query over the whole
 * page computes every element's name, which in jsdom outlasted findByRole's wait here.
 */
const openDialog = (role: 'dialog' | 'alertdialog', text: string) =>
  waitFor(() => {
    const found = [...document.querySelectorAll<HTMLElement>(`[role="${role}"]`)].find((d) =>
      d.textContent?.includes(text),
    );
    if (!found) throw new Error(`no ${role} with ${text}`);
    return found;
  });

describe('API tokens screen', () => {
  it('lists tokens by prefix, scope, creator and state, never a whole token', async () => {
    fakeTokensServer([
      row(1, 'grafana', { scope: 'metrics', last_used_at: NOW - 60_000 }),
      row(2, 'old-ci', { revoked_at: NOW - DAY }),
      row(3, 'expired-bot', { expiry: NOW - DAY }),
    ]);
    renderTable(apiTokensResource, {}, superUser);
    const table = await screen.findByRole('table', { name: 'API tokens' });
    const grafana = (await within(table).findByText('grafana')).closest('tr') as HTMLElement;
    expect(within(grafana).getByText('pat_abcd1xyz')).toBeInTheDocument();
    expect(within(grafana).getByText('Metrics')).toBeInTheDocument();
    expect(within(grafana).getByText('Active')).toBeInTheDocument();
    expect(within(grafana).getByRole('button', { name: 'Revoke' })).toBeInTheDocument();
    const revoked = within(table).getByText('old-ci').closest('tr') as HTMLElement;
    expect(within(revoked).getByText('Revoked')).toBeInTheDocument();
    expect(within(revoked).queryByRole('button', { name: 'Revoke' })).not.toBeInTheDocument();
    expect(
      within(within(table).getByText('expired-bot').closest('tr') as HTMLElement).getByText('Expired'),
    ).toBeInTheDocument();
  });

  it('creates a token, shows it once with a copy button, then revokes it after a confirmation', async () => {
    const server = fakeTokensServer([]);
    const { user } = renderTable(apiTokensResource, {}, superUser);
    await screen.findByRole('table', { name: 'API tokens' });

    await user.click(screen.getByRole('button', { name: 'New token' }));
    const form = await openDialog('alertdialog', 'New token');
    await user.click(within(form).getByRole('button', { name: 'Confirm', hidden: true }));
    expect(await within(form).findByText('Please enter the token name')).toBeInTheDocument();
    expect(server.posted).toHaveLength(0);

    await user.type(within(form).getByRole('textbox', { name: /Name/, hidden: true }), 'prometheus');
    await user.click(within(form).getByRole('radio', { name: /^Operate/, hidden: true }));
    await user.selectOptions(within(form).getByRole('combobox', { name: /Expires in/, hidden: true }), '365');
    await user.click(within(form).getByRole('button', { name: 'Confirm', hidden: true }));
    await waitFor(() => expect(server.posted).toHaveLength(1));
    const sent = server.posted[0] as { name: string; scope: string; expires_at: number };
    expect(sent).toMatchObject({ name: 'prometheus', scope: 'operate' });
    expect(Math.abs(sent.expires_at - (Date.now() + 365 * DAY))).toBeLessThan(60_000);

    const shown = await openDialog('dialog', 'Token prometheus');
    expect(within(shown).getByTestId('new-token')).toHaveTextContent(TOKEN);
    expect(within(shown).getByText('Copy the token now: it is not shown again.')).toBeInTheDocument();
    await user.click(within(shown).getByRole('button', { name: 'Copy', hidden: true }));
    // user-event's clipboard stands in for the browser's.
    expect(await navigator.clipboard.readText()).toBe(TOKEN);
    await user.click(within(shown).getByRole('button', { name: 'OK', hidden: true }));
    await waitFor(() => expect(screen.queryByTestId('new-token')).not.toBeInTheDocument());
    // The list shows the new row by its prefix; the token itself is nowhere on the page any more.
    // hidden: Fluent may keep the page aria-hidden a moment after its dialog closes.
    const table = screen.getByRole('table', { name: 'API tokens', hidden: true });
    const made = (await within(table).findByText('prometheus')).closest('tr') as HTMLElement;
    expect(document.body.textContent?.includes(TOKEN)).toBe(false);

    await user.click(within(made).getByRole('button', { name: 'Revoke', hidden: true }));
    const confirm = await openDialog('alertdialog', 'Token prometheus stops');
    expect(confirm).toHaveTextContent('Token prometheus stops working at once.');
    await user.click(within(confirm).getByRole('button', { name: 'Revoke', hidden: true }));
    await waitFor(() => expect(server.deleted).toHaveLength(1));
    expect(await within(made).findByText('Revoked')).toBeInTheDocument();
  });
});
