// What the follow-up tests share (followUps.test.ts, handOff.test.ts): the sample repository, a
// parent whose `hits` counter children move once per cause, a child moved with follow-ups, and the
// entries still pending on a row.

import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { dynamoClient } from '../../functions/lib/aws/clients.js';
import type { FollowUp, TransitionOptions } from '../../functions/lib/db/entity.js';
import { defineFollowUp } from '../../functions/lib/db/outbox.js';
import { createRepository } from '../../functions/lib/db/repository.js';
import { transition } from '../../functions/lib/db/transition.js';
import { sampleDef } from './sampleEntity.js';

export const repo = createRepository(sampleDef);
export const base = { name: 'Outbox', enable: true, status: 1, score: 0, task_id: 1 };

/** Adds 1 to the parent's `hits`, once per cause. */
export const bump = defineFollowUp('test.bump', ({ id, cause }: { id: number; cause: string }) =>
  repo.add(id, { hits: 1 }, { once: cause }),
);

/** A parent and a child; the child moves to status 2 with the follow-ups `steps` gives for the parent's id. */
export const childMovedWith = async (
  steps: (parentId: number) => FollowUp[],
  options: Pick<TransitionOptions, 'handOff'> = {},
) => {
  const parent = await repo.create(base);
  const child = await repo.create(base);
  await transition(repo, child.id, { status: 2 }, { followUps: steps(parent.id), ...options });
  return { parent, child };
};

/** The names of the outbox entries still pending on a sample row. */
export const pendingOf = async (id: number) =>
  Object.keys(
    (
      await dynamoClient().send(
        new GetCommand({ TableName: process.env.TABLE_NAME, Key: { pk: `sample#${id}`, sk: 'item' } }),
      )
    ).Item ?? {},
  ).filter((k) => k.startsWith('_ob_e_'));
