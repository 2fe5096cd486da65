import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** Where the infra project's test Apps write their cloud assemblies (synthStack.ts `testOutdir`). */
export const ASSEMBLIES_ENV = 'PATROL_CDK_TEST_ASSEMBLIES';

/**
 * vitest globalSetup of the infra project: one folder for every test App's assembly, removed when
 * the project ends. An App given no outdir makes a `cdk.out*` folder in the system's temp directory
 * and never removes it (~30 a run of the suite, up to 23 MB each), and a worker's own exit handler
 * does not run when vitest ends the worker, so the folder is made and removed here, in vitest's
 * process; the workers start after it and inherit the variable.
 */
export default function setup(): () => void {
  const dir = mkdtempSync(path.join(tmpdir(), 'patrol-cdk-tests-'));
  process.env[ASSEMBLIES_ENV] = dir;
  return () => rmSync(dir, { recursive: true, force: true });
}
