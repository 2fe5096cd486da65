import type { SecondFactorPolicy } from '../../shared/schemas/auth.js';
import { readSystemConfigState, saveSystemConfig } from '../systemConfig/service.js';

// The local stack's AUTH_SECOND_FACTOR: the policy of a fresh store, as ADMIN_PASSWORD is its first
// password. Tests and benches that do not test sign-in start their stacks with `off`.

/**
 * Sets `auth.second_factor` while the system config was never saved (version 0), as a new version
 * by "AUTH_SECOND_FACTOR"; later starts leave what a super user chose alone. Answers the policy in force.
 */
export async function seedSecondFactorPolicy(policy: SecondFactorPolicy | undefined): Promise<SecondFactorPolicy> {
  const state = await readSystemConfigState();
  if (policy && state.version === 0 && state.document.auth.second_factor !== policy) {
    const actor = { id: 0, username: 'AUTH_SECOND_FACTOR', nickname: 'AUTH_SECOND_FACTOR', role: 'super' } as const;
    const saved = await saveSystemConfig(actor, {
      ...state.document,
      auth: { ...state.document.auth, second_factor: policy },
    });
    return saved.document.auth.second_factor;
  }
  return state.document.auth?.second_factor ?? 'super';
}
