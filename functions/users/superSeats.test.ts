// The last-super rule against a fresh store on the real local engine (dynalite): the shared
// integration stack always has other supers, so "the last one" can only be staged here.
import { describe, expect, it } from 'vitest';
import { setupDynamo } from '../../tests/data/engine.js';
import { LastSuperUserError } from './errors.js';
import { updateUser } from './service.js';
import { dynamoUserStore } from './store.js';

setupDynamo();

const actor = (id: number) => ({ id, username: `u${id}`, nickname: `u${id}`, role: 'super' as const });
const newUser = (username: string, role: 'super' | 'operator') => ({
  username,
  nickname: username,
  role,
  password_hash: 'scrypt$x',
});

describe('the last enabled super user', () => {
  it('cannot be disabled or demoted, while an operator can come and go', async () => {
    const store = dynamoUserStore();
    const boss = await store.create(newUser('boss', 'super'));
    const op = await store.create(newUser('op', 'operator'));

    await expect(store.update(boss.id, { enabled: false })).rejects.toBeInstanceOf(LastSuperUserError);
    await expect(store.update(boss.id, { role: 'operator' })).rejects.toBeInstanceOf(LastSuperUserError);
    expect(await store.get(boss.id)).toMatchObject({ role: 'super', enabled: true });
    await expect(updateUser(actor(boss.id), op.id, { enabled: false })).resolves.toMatchObject({ enabled: false });

    // A second super frees the first one; disabling a super who is already disabled takes no seat.
    await store.update(op.id, { role: 'super', enabled: true });
    await expect(updateUser(actor(op.id), boss.id, { role: 'operator' })).resolves.toMatchObject({ role: 'operator' });
    await expect(store.update(op.id, { enabled: false })).rejects.toBeInstanceOf(LastSuperUserError);
    await store.update(boss.id, { enabled: false });
    await expect(store.update(boss.id, { role: 'super' })).resolves.toMatchObject({ role: 'super', enabled: false });
    await expect(store.update(op.id, { enabled: false })).rejects.toBeInstanceOf(LastSuperUserError);
  });

  it('survives two supers demoting each other at the same moment: exactly one wins', async () => {
    const store = dynamoUserStore();
    // Only supers of this test are enabled: the ones above were made operators or disabled.
    const enabledSupers = async () =>
      (await Promise.all([1, 2, 3, 4, 5, 6].map((id) => store.get(id)))).filter(
        (u) => u && u.role === 'super' && u.enabled !== false,
      );
    const before = (await enabledSupers()).length;
    const a = await store.create(newUser('a', 'super'));
    const b = await store.create(newUser('b', 'super'));
    for (const u of await enabledSupers()) {
      if (u && u.id !== a.id && u.id !== b.id) await store.update(u.id, { enabled: false });
    }
    expect(before).toBe(1);

    const outcomes = await Promise.allSettled([
      updateUser(actor(a.id), b.id, { role: 'operator' }),
      updateUser(actor(b.id), a.id, { role: 'operator' }),
    ]);

    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    const refused = outcomes.find((o) => o.status === 'rejected');
    expect(refused?.status === 'rejected' && refused.reason).toBeInstanceOf(LastSuperUserError);
    expect(await enabledSupers()).toHaveLength(1);
  });

  it('counts the supers that existed before the rule was first needed', async () => {
    // A fresh store object, as a new Lambda instance: it finds the counter already there.
    const store = dynamoUserStore();
    const c = await store.create(newUser('c', 'super'));
    const again = dynamoUserStore();
    await expect(again.update(c.id, { enabled: false })).resolves.toMatchObject({ enabled: false });
  });
});
