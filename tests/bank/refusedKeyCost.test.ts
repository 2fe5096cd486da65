// Issue 24, hole 2: a refused API key must not tell an unknown key from a disabled account's one,
// neither by its answer nor by the work behind it (the old code answered an unknown key after one
// read in ~6 ms and a disabled account's key after decrypting it in ~55 ms). Time is not measured
// here (no timed tests): the DynamoDB calls each refusal makes are, command by command, and they
// must be the same list, which is what puts both answers in the same time class.

import { describe, expect, it } from 'vitest';
import { handler } from '../../functions/api.js';
import * as service from '../../functions/bank/service.js';
import { lambdaContext } from '../../scripts/local/lambdaContext.js';
import { callsDuring } from '../data/engine.js';
import { apiEvent } from '../helpers/apiEvent.js';
import { setupBankTest } from './setup.js';

setupBankTest(Date.parse('2026-11-23T09:00:00+06:30'));

/** POST /webhook/bank with `key` from `address`: the answer and the DynamoDB commands it took. */
async function push(key: string, address: string) {
  const event = apiEvent({
    method: 'POST',
    path: '/webhook/bank',
    headers: { 'x-api-key': key },
    body: { bank_name: 1, account: 'nobody', type: 1, amount: '1.00', trans_time: '2026-11-23 09:00:00' },
  });
  event.requestContext.http.sourceIp = address;
  const { result: res, calls } = await callsDuring(() =>
    handler(event, lambdaContext({ name: 'api', memoryMb: 512, timeoutSeconds: 29 }, 'us-east-1')),
  );
  const body = JSON.parse(String(res.body));
  return { status: res.statusCode, code: body.code, msg: body.msg, commands: calls.map((c) => c.command) };
}

describe('a refused API key', () => {
  it('costs the same DynamoDB calls, in the same order, whether no account or only a disabled one holds it', async () => {
    const key = 'a-key-of-a-disabled-account-0001';
    const { id } = await service.createAccount({ bank_name: 1, user: 'refused-key', pwd: 'pw-1' });
    await service.updateAccount(id, { api_key: key });
    await service.updateAccount(id, { status: 99 });

    // Each from an address of its own, so both meet the same (empty) count of refused keys.
    const disabled = await push(key, '198.51.100.21');
    const unknown = await push('a-key-nobody-holds-at-all-00001', '198.51.100.22');

    expect(disabled).toMatchObject({ status: 401, code: 4010, msg: 'Invalid API key' });
    expect(unknown).toEqual(disabled);
    expect(disabled.commands.length).toBeGreaterThan(0);
  });
});
