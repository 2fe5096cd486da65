import { GetSecretValueCommand, ResourceNotFoundException } from '@aws-sdk/client-secrets-manager';
import { secretsManagerClient } from './aws/clients.js';

/** The stages of a secret Secrets Manager rotation moves a version through. */
export type SecretStage = 'AWSCURRENT' | 'AWSPENDING' | 'AWSPREVIOUS';

/**
 * The string of one stage of a Secrets Manager secret, or undefined when no version holds that
 * stage (a secret never rotated has no AWSPREVIOUS; AWSPENDING exists only during a rotation).
 */
export async function secretStageValue(arn: string, stage: SecretStage): Promise<string | undefined> {
  return (await secretStageVersion(arn, stage))?.value;
}

/**
 * secretStageValue with when its version was made (ms; a rotation's new value is made by its first
 * step, seconds before it becomes AWSCURRENT), which bounds how long the version before it is kept.
 */
export async function secretStageVersion(
  arn: string,
  stage: SecretStage,
): Promise<{ value: string | undefined; createdAt: number | undefined } | undefined> {
  try {
    const out = await secretsManagerClient().send(new GetSecretValueCommand({ SecretId: arn, VersionStage: stage }));
    return { value: out.SecretString, createdAt: out.CreatedDate ? new Date(out.CreatedDate).getTime() : undefined };
  } catch (error) {
    if (error instanceof ResourceNotFoundException && stage !== 'AWSCURRENT') return undefined;
    throw error;
  }
}
