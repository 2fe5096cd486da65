import type { ApartMessage } from './apart.js';
import { type SandboxBankOptions, startSandboxBank } from './server.js';

// The sandbox banks' own process (apart.ts starts it): serves until its parent disconnects.
const opts = JSON.parse(process.argv[2] ?? '{}') as SandboxBankOptions;
const send = (m: ApartMessage) => process.send?.(m);
try {
  const bank = await startSandboxBank(opts);
  // Ctrl-C reaches the whole process group: the parent decides when this one stops.
  process.on('SIGINT', () => {});
  process.on('disconnect', () => void bank.stop().then(() => process.exit(0)));
  send({ type: 'ready', url: bank.url, kbzUrl: bank.kbzUrl, ayaUrl: bank.ayaUrl });
} catch (error) {
  send({ type: 'failed', error: String(error) });
  process.exit(1);
}
