import { describe, expect, it } from 'vitest';
import { QUEUES } from '../../functions/registry.js';
import { FAILURE_QUEUES } from '../../infra/constructs/Queues.js';
import { synthStack } from './synthStack.js';
import { ofType } from './templateQueries.js';

describe('Queues: one per registry entry, each with a dead-letter queue', () => {
  const { template } = synthStack();
  const queues = ofType(template, 'AWS::SQS::Queue');
  const withRedrive = queues.filter(([, q]) => q.Properties?.RedrivePolicy);

  it('creates every queue of the registry, one dead-letter queue for each, and the failure queues', () => {
    expect(withRedrive).toHaveLength(QUEUES.length);
    expect(queues).toHaveLength(QUEUES.length * 2 + Object.keys(FAILURE_QUEUES).length);
  });

  it.each(QUEUES.map((q) => [q.name, q] as const))(
    'gives the %s queue its visibility timeout and a dead-letter queue after its maxReceiveCount',
    (_name, def) => {
      const [, queue] = withRedrive.find(([id]) => id.startsWith(`Queues${def.name}`)) ?? [];
      expect(queue?.Properties).toMatchObject({
        VisibilityTimeout: def.visibilityTimeout,
        RedrivePolicy: { maxReceiveCount: def.maxReceiveCount },
      });
      const dlqId = queue?.Properties?.RedrivePolicy.deadLetterTargetArn['Fn::GetAtt'][0];
      expect(ofType(template, 'AWS::SQS::Queue').map(([id]) => id)).toContain(dlqId);
    },
  );

  it('encrypts every queue at rest', () => {
    for (const [, q] of queues) expect(q.Properties?.SqsManagedSseEnabled).toBe(true);
  });

  it('gives each queue a dead-letter queue of its own, so a dead letter shows where it came from', () => {
    const targets = withRedrive.map(([, q]) => JSON.stringify(q.Properties?.RedrivePolicy.deadLetterTargetArn));
    expect(new Set(targets).size).toBe(QUEUES.length);
  });
});
