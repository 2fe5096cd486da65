import { ERRORS, ErrorCode } from '../../shared/errors.js';
import { NotFoundError, PatrolError } from '../lib/errors.js';

/** A rule that never existed or was soft-deleted: both are gone for every caller. */
export class RuleNotFoundError extends NotFoundError {
  override name = 'RuleNotFoundError';
  override code: number = ErrorCode.AutoCheckRuleNotFound;
  constructor(id: number) {
    super(`Rule ${id} does not exist`);
  }
}

/** A schedule call failed: the rule change was not made (functions/autoCheck/service.ts). */
export class RuleScheduleError extends PatrolError {
  override name = 'RuleScheduleError';
  override status: number = ERRORS.ScheduleUnavailable.status;
  override code: number = ErrorCode.ScheduleUnavailable;
  constructor(id: number, options?: { cause?: unknown }) {
    super(`The schedule of rule ${id} could not be saved, so the rule was not changed; try again.`, options);
  }
}
