// The sandbox banks' ledger kept in a file (the local stack's DATA_DIR/sandbox-bank.json), so a
// restart, or a kill of the whole stack, finds the logins, sub-accounts, statements and balances
// it had, as a real bank would: a statement a poll read before the kill is still there after it.
// Written whole, to a temporary file then renamed (never half a file), before the answer of the
// request that changed it goes out: whatever a poller saw is on disk. Sessions and behaviour
// switches are not kept (a bank's sessions end with a restart of its portal anyway).
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { Ledger, LedgerState } from './ledger';

/** Loads the file into the ledger, if there is one. */
export function loadLedger(ledger: Ledger, file: string): void {
  if (existsSync(file)) ledger.restore(JSON.parse(readFileSync(file, 'utf8')) as LedgerState);
}

/** A keeper that writes the ledger when it changed since it last wrote it. */
export function ledgerKeeper(ledger: Ledger, file: string): () => void {
  let saved = ledger.version;
  return () => {
    if (ledger.version === saved) return;
    saved = ledger.version;
    const tmp = `${file}.tmp`;
    writeFileSync(tmp, JSON.stringify(ledger.snapshot()));
    renameSync(tmp, file);
  };
}
