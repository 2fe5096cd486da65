import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { RunStatus } from '../../shared/enums.js';
import { kit, uniqueName } from '../helpers/authKit.js';

// The step timeout of a check comes from the super config: an operator who raises or lowers it
// sees the next check give up on a slow site after that many seconds.
//
// The test raises it (20 s, the default is 15 s): the config is the shared stack's, and a lowered
// timeout made the full checks other files run at the same time fail on a loaded machine (CI, 2
// cores). A raise harms none of them, and a timeout at 20 000 ms can only be the configured one.

const stack = inject('stack');
const k = kit(stack);
const { client } = k;
let token: string;
let original: unknown;

const configOf = async () => (await client.get('/api/v1/super/system-config', { token })).body.data.document;
const saveConfig = (document: unknown) => client.post('/api/v1/super/system-config', { token, body: document });

beforeAll(async () => {
  token = await k.admin();
  original = await configOf();
});
afterAll(async () => {
  await saveConfig(original);
  k.destroy();
});

it('gives up on a slow site at the step timeout set in the config', async () => {
  const document = await configOf();
  const saved = await saveConfig({ ...document, checker: { ...document.checker, step_timeout_seconds: 20 } });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  // The checker reads the config through a 5 s cache.
  await new Promise((r) => setTimeout(r, 5_500));

  // This account's agent-setting answers from the sandbox site take 25 s: past the 20 s, and the default 15 s.
  const user = uniqueName('pace')
    .replace(/[^A-Za-z0-9]/g, '')
    .slice(0, 20);
  const rule = await fetch(`${stack.env.SANDBOX_SITE_URL}/__sandbox/behaviour`, {
    method: 'POST',
    body: JSON.stringify({ failure: 'slow', user, process: 8, delayMs: 25_000 }),
  });
  expect(rule.status).toBe(200);
  const site = await client.post('/api/v1/sites', {
    token,
    body: {
      name: uniqueName('Slow '),
      url: stack.env.SANDBOX_SITE_URL,
      accounts: [{ user, pwd: 'sandbox123' }],
    },
  });
  expect(site.status, JSON.stringify(site.body)).toBe(200);
  const op = await client.post(`/api/v1/sites/${site.body.data.id}/check`, {
    token,
    body: { points: [{ point: 8, modes: [1] }] },
  });
  expect(op.status, JSON.stringify(op.body)).toBe(200);

  const until = Date.now() + 120_000;
  let subs: { process: number; status: number; msg: string }[] = [];
  while (Date.now() < until) {
    subs = (await client.get(`/api/v1/check/subtasks?operation_id==-${op.body.data.id}`, { token })).body.data.result;
    if (subs.length && subs.every((s) => s.status === RunStatus.values.Done || s.status === RunStatus.values.Failed))
      break;
    await new Promise((r) => setTimeout(r, 500));
  }
  const agents = subs.find((s) => s.process === 8);
  expect(agents).toMatchObject({
    status: RunStatus.values.Failed,
    msg: expect.stringContaining('Timed out after 20000 ms at step'),
  });
});
