import { randomUUID } from 'node:crypto';
import type { Context } from 'aws-lambda';
import type { LambdaDef } from '../../functions/registry.js';

/** What the Lambda runtime passes as the second argument, for one invocation. */
export function lambdaContext(def: Pick<LambdaDef, 'name' | 'memoryMb' | 'timeoutSeconds'>, region: string): Context {
  const deadline = Date.now() + def.timeoutSeconds * 1000;
  const functionName = `patrol-${def.name}`;
  return {
    awsRequestId: randomUUID(),
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:${region}:000000000000:function:${functionName}`,
    memoryLimitInMB: String(def.memoryMb),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: `local/${process.pid}`,
    callbackWaitsForEmptyEventLoop: true,
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => {},
    fail: () => {},
    succeed: () => {},
  };
}
