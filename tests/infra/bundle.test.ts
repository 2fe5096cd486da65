import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../infra/PatrolStack.js';
import type { Json } from './templateQueries.js';

const run = promisify(execFile);

// The one test that runs the real toolchain: `cdk synth` as a deployer would, bundling with the
// local esbuild (no docker). Measured at 7 s on an idle machine (12 s of CPU), 45 s under load,
// so the limit is generous and no wall-clock figure is asserted.
describe('a real cdk synth of the dev stage', () => {
  const out = mkdtempSync(path.join(tmpdir(), 'patrol-cdk-out-'));
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('bundles the api function into a runnable ES module that answers an API Gateway event', async () => {
    await run('npx', ['cdk', 'synth', '-c', 'stage=dev', '-o', out, '--quiet'], {
      cwd: REPO_ROOT,
      timeout: 170_000,
      env: { ...process.env, CI: '1' },
    });

    const template = JSON.parse(readFileSync(path.join(out, 'Patrol-dev.template.json'), 'utf8'));
    const [api] = Object.values<Json>(template.Resources).filter(
      (r) => r.Type === 'AWS::Lambda::Function' && String(r.Properties.Description).includes(': api ('),
    );
    const assetDir = path.join(out, `asset.${api.Properties.Code.S3Key.replace(/\.zip$/, '')}`);
    expect(existsSync(path.join(assetDir, 'index.mjs'))).toBe(true);
    // Kept out of the bundle because it loads its font from its own folder.
    expect(existsSync(path.join(assetDir, 'node_modules', 'svg-captcha', 'fonts'))).toBe(true);

    const invoke = `
      const { handler } = await import(${JSON.stringify(path.join(assetDir, 'index.mjs'))});
      const path = '/api/v1/no-such-route';
      const res = await handler({
        version: '2.0', routeKey: 'ANY /api/v1/{proxy+}', rawPath: path, rawQueryString: '', isBase64Encoded: false,
        headers: { host: 'example.cloudfront.net' },
        requestContext: { requestId: 'r-1', routeKey: 'ANY /api/v1/{proxy+}', stage: '$default', timeEpoch: Date.now(),
          http: { method: 'GET', path, sourceIp: '192.0.2.1', protocol: 'HTTP/1.1', userAgent: 'vitest' } },
      }, { awsRequestId: 'r-1', functionName: 'api', getRemainingTimeInMillis: () => 29000 });
      process.stdout.write(JSON.stringify(res));`;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', invoke], {
      cwd: out,
      timeout: 30_000,
      env: {
        PATH: process.env.PATH,
        AWS_REGION: 'us-east-1',
        TABLE_NAME: 'patrol',
        VIDEO_BUCKET: 'videos',
        JWT_SECRET: 'test-secret',
        LOG_LEVEL: 'ERROR',
        POWERTOOLS_SERVICE_NAME: 'patrol-api',
      },
    });
    const res = JSON.parse(stdout);
    expect(res.statusCode).toBe(404);
    expect(JSON.parse(res.body)).toMatchObject({ code: expect.any(Number), request_id: expect.any(String) });
  }, 180_000);
});
