import type { IConstruct } from 'constructs';
import { AwsSolutionsChecks, type NagPack, ServerlessChecks } from 'cdk-nag';

/** One rule a resource breaks and nobody acknowledged (infra/nag/nagSuppressions.ts). */
export interface NagFinding {
  pack: string;
  /** e.g. `AwsSolutions-IAM5[Resource::*]`: the rule, and for multi-finding rules which finding. */
  rule: string;
  level: 'error' | 'warning';
  /** Construct path of the resource, e.g. `Patrol-prod/Functions/api/Resource`. */
  path: string;
  info: string;
}

/** The packs the infra tests and `npm run nag` hold the app to. */
export const NAG_PACKS: readonly (() => NagPack)[] = [() => new AwsSolutionsChecks(), () => new ServerlessChecks()];

/**
 * Every unacknowledged finding of the packs over a synthesized construct tree. Walks the tree
 * directly (cdk-nag's validateScope) instead of registering a synth plugin, so a test or the
 * script reads the findings as data rather than from the synth's report on disk.
 */
export function nagFindings(scope: IConstruct): NagFinding[] {
  const findings: NagFinding[] = [];
  for (const makePack of NAG_PACKS) {
    const pack = makePack();
    for (const violation of pack.validateScope(scope).violations) {
      for (const resource of violation.violatingResources) {
        findings.push({
          pack: pack.readPackName,
          rule: violation.ruleName,
          level: violation.severity === 'error' ? 'error' : 'warning',
          path: String((resource as { constructPath?: string }).constructPath ?? resource.resourceLogicalId),
          info: violation.description,
        });
      }
    }
  }
  return findings;
}
