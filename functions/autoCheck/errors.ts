import { ErrorCode } from '../../shared/errors.js';
import { NotFoundError } from '../lib/errors.js';

/** A rule that never existed or was soft-deleted: both are gone for every caller. */
export class RuleNotFoundError extends NotFoundError {
  override name = 'RuleNotFoundError';
  override code: number = ErrorCode.AutoCheckRuleNotFound;
  constructor(id: number) {
    super(`Rule ${id} does not exist`);
  }
}

/** A schedule call failed; the rule is saved, and the next sync of the rule repairs its schedules. */
export class RuleScheduleError extends Error {
  override name = 'RuleScheduleError';
}
