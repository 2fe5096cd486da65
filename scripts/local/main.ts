import { isAbsolute, relative } from 'node:path';
import { SecondFactorPolicies, type SecondFactorPolicy } from '../../shared/schemas/auth.js';
import { adminPasswordProblem } from './adminSeed.js';
import { startLocalStack } from './stack.js';
import { dynamoEngineNamed } from './engines/dynamo.js';

// `npm start`: the local stack in the foreground. Ctrl-C stops it cleanly: no new requests,
// running invocations finish (up to 30 s), then the engines close; the data stays in DATA_DIR.

const port = Number(process.env.PORT ?? 3000);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`PORT must be a port number, not "${process.env.PORT}"`);
  process.exit(2);
}
const dataDir = process.env.DATA_DIR || '.data';
const adminProblem = process.env.ADMIN_PASSWORD ? adminPasswordProblem(process.env.ADMIN_PASSWORD) : undefined;
if (adminProblem) {
  console.error(`${adminProblem} (6 to 40 characters, the rule of every console password)`);
  process.exit(2);
}
// The second-factor policy of an empty store (docs/sign-in.md); absent: the config's default, super.
const secondFactor = process.env.AUTH_SECOND_FACTOR || undefined;
if (secondFactor && !(SecondFactorPolicies as readonly string[]).includes(secondFactor)) {
  console.error(`AUTH_SECOND_FACTOR must be one of ${SecondFactorPolicies.join(', ')}, not "${secondFactor}"`);
  process.exit(2);
}
const dynamoEngine = dynamoEngineNamed(process.env.DYNAMO_ENGINE);

const started = Date.now();
const stack = await startLocalStack({
  dataDir,
  port,
  host: process.env.HOST || '127.0.0.1',
  demo: process.env.DEMO !== '0',
  adminPassword: process.env.ADMIN_PASSWORD || undefined,
  secondFactor: secondFactor as SecondFactorPolicy | undefined,
  dynamoEngine,
  publicUrl: process.env.PUBLIC_URL || undefined,
}).catch((error) => {
  console.error('Patrol could not start:', error);
  process.exit(1);
});

const fromCwd = relative(process.cwd(), stack.adminPasswordFile);
const shown = fromCwd.startsWith('..') || isAbsolute(fromCwd) ? stack.adminPasswordFile : fromCwd;
const adminLine = stack.adminPasswordGenerated
  ? `admin / ${stack.adminPassword}   (new; also saved in ${shown})`
  : stack.adminPassword
    ? 'admin / the password in ADMIN_PASSWORD (new)'
    : `admin (existing; a generated password is kept in ${shown})`;
// The policy covers the first super user unless it is off: say what the first sign-in asks.
const factorLine =
  stack.secondFactor === 'off'
    ? 'off (auth.second_factor): a password alone signs in'
    : `${stack.secondFactor === 'all' ? 'every user' : 'super users'} (auth.second_factor = ${stack.secondFactor}): admin scans a QR code into an authenticator app right after the first password sign-in, unless done already; AUTH_SECOND_FACTOR=off on an empty DATA_DIR turns it off`;
console.log(`
Patrol is running at ${stack.url}  (ready in ${Date.now() - started} ms)
  Sign in:  ${adminLine}
  2nd step: ${factorLine}
  Data:     ${stack.dataDir}${stack.sandboxSiteUrl ? `\n  Sandbox:  ${stack.sandboxSiteUrl}` : ''}${stack.sandboxBankUrl ? `\n  Banks:    ${stack.sandboxBankUrl}/kbz, ${stack.sandboxBankUrl}/aya` : ''}${stack.sandboxOidcUrl ? `\n  SSO:      ${stack.sandboxOidcUrl} (the sandbox identity provider; accounts operator1, stranger; password in ${stack.dataDir}/sandbox-oidc-password.txt)` : ''}
  Stop:     Ctrl-C
`);
// A parent that started us with an IPC channel (the test harness) gets the details directly.
process.send?.({ type: 'ready', url: stack.url, dataDir: stack.dataDir, env: stack.env });

let stopping = false;
const shutdown = async (signal: string) => {
  if (stopping) return;
  stopping = true;
  console.log(`\n${signal}: stopping (waiting for running work, at most 30 s)...`);
  try {
    await stack.stop();
    console.log('Stopped. Data kept in', stack.dataDir);
    process.exit(0);
  } catch (error) {
    console.error('Stop failed:', error);
    process.exit(1);
  }
};
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('disconnect', () => void shutdown('parent gone'));
