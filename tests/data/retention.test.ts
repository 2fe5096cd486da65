// Rows of a `retention` kind expire after the system config's days in force when they are
// written (a log row's TTL follows the configured retention, not a constant).
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SYSTEM_CONFIG } from '../../shared/schemas/systemConfig.js';
import { field, keyOrderFields } from '../../shared/listFields.js';
import { dynamoClient } from '../../functions/lib/aws/clients.js';
import { defineEntity } from '../../functions/lib/db/entity.js';
import { createRepository } from '../../functions/lib/db/repository.js';
import { saveSystemConfig } from '../../functions/systemConfig/service.js';
import { setupDynamo } from './engine.js';

setupDynamo();

interface LogRow {
  id: number;
  created_at: number;
  text: string;
}
const logDef = defineEntity<LogRow>({
  type: 'retention_sample',
  fields: { ...keyOrderFields, text: field.text({ filter: 'bounded' }) },
  retention: 'log_rows',
});
const repo = createRepository(logDef);
const actor = { id: 1, username: 'admin', nickname: 'Admin', role: 'super' as const };
const DAY = 24 * 3600;

async function expiresAt(id: number): Promise<number | undefined> {
  const out = await dynamoClient().send(
    new GetCommand({ TableName: process.env.TABLE_NAME, Key: { pk: `retention_sample#${id}`, sk: 'item' } }),
  );
  return out.Item?.expires_at;
}

describe('retention', () => {
  it('gives a new log row the expiry of the configured retention, and a later row the changed one', async () => {
    const created_at = 1_700_000_000_000;
    const first = await repo.create({ text: 'a', created_at });
    expect(await expiresAt(first.id)).toBe(1_700_000_000 + DEFAULT_SYSTEM_CONFIG.retention_days.log_rows * DAY);

    await saveSystemConfig(actor, {
      ...DEFAULT_SYSTEM_CONFIG,
      retention_days: { ...DEFAULT_SYSTEM_CONFIG.retention_days, log_rows: 3 },
    });
    const [one, two] = await repo.createMany([
      { text: 'b', created_at },
      { text: 'c', created_at },
    ]);
    const single = await repo.create({ text: 'd', created_at });
    for (const row of [one, two, single]) expect(await expiresAt(row.id)).toBe(1_700_000_000 + 3 * DAY);
    // A row keeps the expiry it was written with.
    expect(await expiresAt(first.id)).toBe(1_700_000_000 + DEFAULT_SYSTEM_CONFIG.retention_days.log_rows * DAY);
  });
});
