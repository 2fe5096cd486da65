import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { App, Stack } from 'aws-cdk-lib';
import { Bucket } from 'aws-cdk-lib/aws-s3';
import { describe, expect, it } from 'vitest';
import { nagFindings } from '../../infra/nag/nagFindings.js';
import { REPO_ROOT } from '../../infra/PatrolStack.js';
import { nagReport } from '../../scripts/nag.js';
import { testOutdir } from './synthStack.js';

const run = promisify(execFile);

describe('npm run nag', () => {
  it('prints the findings of a stage as JSON and exits 0 when none is an unacknowledged error', async () => {
    const { stdout } = await run('npm', ['run', '--silent', 'nag', '--', '--stage', 'prod'], {
      cwd: REPO_ROOT,
      timeout: 120_000,
    });
    expect(JSON.parse(stdout)).toEqual({ stage: 'prod', errors: 0, findings: [] });
  });

  it('exits 1 and lists the error when a resource breaks a rule nobody acknowledged', () => {
    const app = new App({ outdir: testOutdir() });
    // A bucket with none of what AwsSolutions asks (access logs, TLS only).
    new Bucket(new Stack(app, 'Careless'), 'Open');
    const { code, json } = nagReport('careless', nagFindings(app), false);
    expect(code).toBe(1);
    const report = JSON.parse(json);
    expect(report.errors).toBeGreaterThan(0);
    expect(report.findings).toContainEqual(
      expect.objectContaining({ rule: 'AwsSolutions-S1', level: 'error', path: 'Careless/Open/Resource' }),
    );
  });
});
