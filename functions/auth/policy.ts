import type { SecondFactorPolicy } from '../../shared/schemas/auth.js';
import { getSystemConfig } from '../systemConfig/getSystemConfig.js';
import type { UserRecord } from '../users/userEntity.js';

// Who must have a second factor: the system config's `auth.second_factor` (`off`, `super`, the
// default, or `all`). A covered user without one is sent to enrolment after the first factor.

export async function secondFactorPolicy(): Promise<SecondFactorPolicy> {
  return (await getSystemConfig()).auth?.second_factor ?? 'super';
}

export function policyCovers(policy: SecondFactorPolicy, user: Pick<UserRecord, 'role'>): boolean {
  return policy === 'all' || (policy === 'super' && user.role === 'super');
}
