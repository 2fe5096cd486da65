import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { deploysInCloud, LAMBDAS } from '../../functions/registry.js';
import { REPO_ROOT } from '../../infra/PatrolStack.js';
import type { Json } from './templateQueries.js';

const run = promisify(execFile);

/** What a Lambda would have in its environment, enough for any handler module to load. */
const LAMBDA_ENV = {
  PATH: process.env.PATH,
  AWS_REGION: 'us-east-1',
  TABLE_NAME: 'patrol',
  VIDEO_BUCKET: 'videos',
  CHECK_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/000000000000/check',
  NOTIFY_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/000000000000/notify',
  BANK_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/000000000000/bank',
  JWT_SECRET: 'test-secret',
  PUBLIC_URL: 'https://example.cloudfront.net',
  LOG_LEVEL: 'ERROR',
  POWERTOOLS_SERVICE_NAME: 'patrol-test',
};

const INVOKE_UNKNOWN_ROUTE = `
  const { handler } = await import('./index.mjs');
  const path = '/api/v1/no-such-route';
  const res = await handler({
    version: '2.0', routeKey: 'ANY /api/v1/{proxy+}', rawPath: path, rawQueryString: '', isBase64Encoded: false,
    headers: { host: 'example.cloudfront.net' },
    requestContext: { requestId: 'r-1', routeKey: 'ANY /api/v1/{proxy+}', stage: '$default', timeEpoch: Date.now(),
      http: { method: 'GET', path, sourceIp: '192.0.2.1', protocol: 'HTTP/1.1', userAgent: 'vitest' } },
  }, { awsRequestId: 'r-1', functionName: 'api', getRemainingTimeInMillis: () => 29000 });
  process.stdout.write(JSON.stringify(res));`;

const LOAD_HANDLER = `const m = await import('./index.mjs'); process.stdout.write(typeof m.handler);`;

const LOAD_CHROMIUM = `const c = await import('@sparticuz/chromium'); process.stdout.write(typeof c.default.executablePath);`;

/** Runs a script as an ES module inside an unzipped function asset, as Lambda would load it. */
async function runInAsset(assetDir: string, script: string): Promise<string> {
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], {
    cwd: assetDir,
    timeout: 60_000,
    env: LAMBDA_ENV,
  });
  return stdout;
}

// The one test that runs the real toolchain: `cdk synth` as a deployer would, bundling with the
// local esbuild (no docker) and installing the unbundled packages. With the api, checker, reaper and
// repair functions it costs about 20 s of CPU; wall time was 54 s to 115 s on a 2-core machine under
// a load of 14 to 21, and 196 s on a machine twice as slow at the suite's busy start (45 s alone),
// hence the generous limit and no time asserted.
describe('a real cdk synth of the dev stage', () => {
  const out = mkdtempSync(path.join(tmpdir(), 'patrol-cdk-out-'));
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('bundles every function into an ES module that loads, and the api one answers an API Gateway event', async () => {
    await run('npx', ['cdk', 'synth', '-c', 'stage=dev', '-o', out, '--quiet'], {
      cwd: REPO_ROOT,
      timeout: 400_000,
      env: { ...process.env, CI: '1' },
    });
    const template = JSON.parse(readFileSync(path.join(out, 'Patrol-dev.template.json'), 'utf8'));
    const assetOf = (name: string): string => {
      const [fn] = Object.values<Json>(template.Resources).filter(
        (r) => r.Type === 'AWS::Lambda::Function' && String(r.Properties.Description).includes(`: ${name} (`),
      );
      return path.join(out, `asset.${fn.Properties.Code.S3Key.replace(/\.zip$/, '')}`);
    };

    const apiAsset = assetOf('api');
    // Kept out of the bundle because it loads its font from its own folder.
    expect(existsSync(path.join(apiAsset, 'node_modules', 'svg-captcha', 'fonts'))).toBe(true);
    const res = JSON.parse(await runInAsset(apiAsset, INVOKE_UNKNOWN_ROUTE));
    expect(res.statusCode).toBe(404);
    expect(JSON.parse(res.body)).toMatchObject({ code: expect.any(Number), request_id: expect.any(String) });

    for (const def of LAMBDAS.filter(deploysInCloud)) {
      const asset = assetOf(def.name);
      if (def.chromium) {
        // Imported lazily by the checker, so only resolving it from the asset proves it ships.
        expect(await runInAsset(asset, LOAD_CHROMIUM), def.name).toBe('function');
        expect(existsSync(path.join(asset, 'node_modules', '@sparticuz', 'chromium', 'bin')), def.name).toBe(true);
      }
      expect(await runInAsset(asset, LOAD_HANDLER), def.name).toBe('function');
    }
  }, 420_000);
});
