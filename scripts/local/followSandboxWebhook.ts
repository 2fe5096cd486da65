import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * The sandbox webhook receiver listens on a new free port at every start, like the sandbox site
 * (followSandbox.ts): bank accounts whose webhook pointed at the previous receiver (the demo
 * accounts, or any an operator pointed there) are moved to the new address, remembered in
 * DATA_DIR/sandbox-webhook-url.txt. Never throws: the accounts only keep their old address.
 */
export async function followSandboxWebhook(dataDir: string, receiverUrl: string): Promise<number> {
  const file = join(dataDir, 'sandbox-webhook-url.txt');
  const previous = (await readFile(file, 'utf8').catch(() => '')).trim();
  let moved = 0;
  try {
    if (previous && previous !== receiverUrl) {
      const { bankStore } = await import('../../functions/bank/store.js');
      const { emptyListQuery } = await import('../../shared/listQuery.js');
      const store = bankStore();
      for (const account of (await store.listAccounts(emptyListQuery({ page_size: 0 }))).result) {
        if (!account.webhook?.startsWith(`${previous}/`)) continue;
        await store.updateAccount(account.id, { webhook: receiverUrl + account.webhook.slice(previous.length) });
        moved++;
      }
    }
    await writeFile(file, `${receiverUrl}\n`);
  } catch (error) {
    console.warn('[local] could not move bank webhooks to the new sandbox receiver', error);
  }
  return moved;
}
