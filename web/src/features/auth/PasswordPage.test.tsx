import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getAuth } from '@/app/auth';
import { buildRouteObjects } from '@/app/router';
import { findToast, jsonResponse, ok, operator, renderRoutes } from '@/test/renderApp';

// Fluent inputs re-render on every keystroke; jsdom makes that slow on a 2-core machine.
vi.setConfig({ testTimeout: 30_000 });

const fetchMock = vi.fn<typeof fetch>();
// The shell also polls for web notifications; only the password call gets the test's answer.
let pwdReply: () => Response = () => jsonResponse(ok(null));
const pwdCalls = () => fetchMock.mock.calls.filter(([url]) => String(url) === '/api/v1/pwd');
beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
  fetchMock.mockImplementation(async (url) =>
    String(url).includes('/notifications/web') ? jsonResponse(ok([])) : pwdReply(),
  );
});
afterEach(() => {
  fetchMock.mockReset();
  vi.unstubAllGlobals();
});

async function openForm() {
  const view = renderRoutes(buildRouteObjects(), '/setting/password', operator);
  await screen.findByRole('heading', { name: 'Edit Password' });
  const field = (label: RegExp) => screen.getByLabelText(label);
  return {
    ...view,
    current: field(/^Current password/),
    next: field(/^New password/),
    repeat: field(/^Repeat new password/),
    save: screen.getByRole('button', { name: 'Save' }),
  };
}

describe('Edit Password', () => {
  it('asks for all three passwords when saved empty or blank', async () => {
    const user = userEvent.setup({ delay: null });
    const form = await openForm();
    await user.type(form.current, '   ');
    await user.click(form.save);
    expect(screen.getByText('Please input current password!')).toBeInTheDocument();
    expect(screen.getByText('Please input new password!')).toBeInTheDocument();
    expect(screen.getByText('Please repeat new password!')).toBeInTheDocument();
    expect(pwdCalls()).toHaveLength(0);
  });

  it('enforces the length limits of 6 and 40', async () => {
    const user = userEvent.setup({ delay: null });
    const form = await openForm();
    await user.type(form.current, 'abc');
    await user.type(form.next, 'x'.repeat(41));
    await user.click(form.save);
    expect(screen.getByText('min length is 6')).toBeInTheDocument();
    expect(screen.getByText('max length is 40')).toBeInTheDocument();
  });

  it('requires the repeated password to match the new one', async () => {
    const user = userEvent.setup({ delay: null });
    const form = await openForm();
    await user.type(form.next, 'secret-1');
    await user.type(form.repeat, 'secret-2');
    await user.tab();
    expect(screen.getByText('Password not matched')).toBeInTheDocument();
  });

  it('sends trimmed passwords, then signs the user out to login', async () => {
    const user = userEvent.setup({ delay: null });
    pwdReply = () => jsonResponse(ok(null));
    const form = await openForm();
    await user.type(form.current, ' old-secret ');
    await user.type(form.next, 'new-secret');
    await user.type(form.repeat, 'new-secret ');
    await user.click(form.save);
    expect(await findToast('Password update success, please login again.')).toBeInTheDocument();
    expect(pwdCalls()).toHaveLength(1);
    expect(JSON.parse(String(pwdCalls()[0][1]?.body))).toEqual({ old_pwd: 'old-secret', pwd: 'new-secret' });
    expect(getAuth()).toBeNull();
    expect(form.router.state.location.pathname).toBe('/auth/login');
  });

  it('says the update failed and keeps the user on the form', async () => {
    const user = userEvent.setup({ delay: null });
    pwdReply = () => jsonResponse({ code: 4001, msg: 'Current password is wrong', request_id: 'r' }, 400);
    const form = await openForm();
    await user.type(form.current, 'wrong-old');
    await user.type(form.next, 'new-secret');
    await user.type(form.repeat, 'new-secret');
    await user.click(form.save);
    expect(await findToast('Password update failed.')).toBeInTheDocument();
    expect(await findToast('Current password is wrong')).toBeInTheDocument();
    expect(getAuth()).not.toBeNull();
    expect(form.router.state.location.pathname).toBe('/setting/password');
  });
});
