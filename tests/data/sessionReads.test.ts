import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetSecretKeys } from '../../functions/lib/secrets/index.js';
import { readAccountSession, saveAccountSession } from '../../functions/sites/service.js';
import { callsDuring, setupDynamo } from './engine.js';

// The session a task's login stored is restored by each of the task's other subtasks (14 of a
// default task's 15). Its row never changes once written, so a checker process reads it once.

setupDynamo();

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'patrol-session-reads-'));
  process.env.SECRETS_KEY_FILE = join(dir, 'secrets.key');
  resetSecretKeys();
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const save = (session: string, expire_at: number | null = null) =>
  saveAccountSession({ site_id: 1, account_id: 2, auth_type: 1, session, expire_at });

describe("a login's stored session", () => {
  it('is read from the table once per process, and each token id still gets its own session', async () => {
    const first = await save('{"cookies":"first"}');
    const second = await save('{"cookies":"second"}');

    const { result: reads, calls } = await callsDuring(async () => [
      await readAccountSession(first),
      await readAccountSession(first),
      await readAccountSession(second),
      await readAccountSession(first),
    ]);
    expect(reads).toEqual([
      '{"cookies":"first"}',
      '{"cookies":"first"}',
      '{"cookies":"second"}',
      '{"cookies":"first"}',
    ]);
    expect(calls.filter((c) => c.command === 'GetItemCommand').map((c) => c.pk)).toEqual([
      `site_token#${first}`,
      `site_token#${second}`,
    ]);
  });

  it('kept in memory still expires when its time is up', async () => {
    const id = await save('{"cookies":"short"}', Date.now() + 60_000);
    expect(await readAccountSession(id)).toBe('{"cookies":"short"}');
    expect(await readAccountSession(id, Date.now() + 120_000)).toBeUndefined();
  });
});
