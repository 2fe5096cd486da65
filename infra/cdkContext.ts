import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const CDK_JSON = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'cdk.json');

/** cdk.json's context: the stage table and feature flags a real `cdk synth` sees. */
export function loadCdkContext(): Record<string, unknown> {
  return JSON.parse(readFileSync(CDK_JSON, 'utf8')).context;
}
