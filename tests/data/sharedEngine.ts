// vitest globalSetup of the data, bank and fidelity projects: one DynamoDB engine for all of the
// project's files, in memory. Each file makes a table of its own on it (tests/data/engine.ts), so
// files stay apart as with an engine each, without starting one per file: a DynamoDB Local JVM
// took seconds of CPU to start and warm for each of the fidelity project's 21 files.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { dynamoEngineNamed, startDynamo } from '../../scripts/local/engines/dynamo.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The project's shared DynamoDB engine, where each test file makes its own table. */
    sharedDynamo?: { endpoint: string };
  }
}

export default async function setup(project: TestProject) {
  const engine = dynamoEngineNamed(project.config.env?.DYNAMO_ENGINE);
  const dir = await mkdtemp(join(tmpdir(), `patrol-${project.name}-`));
  const handle = await startDynamo({ dataDir: dir, engine, inMemory: true });
  project.provide('sharedDynamo', { endpoint: handle.endpoint });
  return async () => {
    await handle.stop();
    await rm(dir, { recursive: true, force: true });
  };
}
