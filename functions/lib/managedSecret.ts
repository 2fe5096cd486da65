import { GetSecretValueCommand, ResourceNotFoundException } from '@aws-sdk/client-secrets-manager';
import { secretsManagerClient } from './aws/clients.js';

/** The stages of a secret Secrets Manager rotation moves a version through. */
export type SecretStage = 'AWSCURRENT' | 'AWSPENDING' | 'AWSPREVIOUS';

/**
 * The string of one stage of a Secrets Manager secret, or undefined when no version holds that
 * stage (a secret never rotated has no AWSPREVIOUS; AWSPENDING exists only during a rotation).
 */
export async function secretStageValue(arn: string, stage: SecretStage): Promise<string | undefined> {
  try {
    const out = await secretsManagerClient().send(new GetSecretValueCommand({ SecretId: arn, VersionStage: stage }));
    return out.SecretString;
  } catch (error) {
    if (error instanceof ResourceNotFoundException && stage !== 'AWSCURRENT') return undefined;
    throw error;
  }
}
