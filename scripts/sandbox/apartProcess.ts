import type { ApartKind, ApartMessage } from './apart.js';
import { startSandboxBank } from './bank/server.js';
import { startSandboxSite } from './site/server.js';

// A sandbox's own process (apart.ts starts it): serves until its parent disconnects.
const starters = { site: startSandboxSite, bank: startSandboxBank } as const;
const kind = process.argv[2] as ApartKind;
const opts = JSON.parse(process.argv[3] ?? '{}');
const send = (m: ApartMessage) => process.send?.(m);
try {
  const { stop, ...fields } = await starters[kind](opts);
  // Ctrl-C reaches the whole process group: the parent decides when this one stops.
  process.on('SIGINT', () => {});
  process.on('disconnect', () => void stop().then(() => process.exit(0)));
  send({ type: 'ready', fields });
} catch (error) {
  send({ type: 'failed', error: String(error) });
  process.exit(1);
}
