import { ERRORS, ErrorCode } from '../../shared/errors.js';
import type { Expected } from '../../shared/alertRules/index.js';
import { NotFoundError, PatrolError } from '../lib/errors.js';

export class AlertRuleNotFoundError extends NotFoundError {
  override name = 'AlertRuleNotFoundError';
  override code: number = ErrorCode.AlertRuleNotFound;
  constructor(id: number) {
    super(`Alert rule ${id} does not exist`);
  }
}

/** The condition does not parse: a 400 naming the 1-based column and what the parser expected there. */
export class AlertRuleExpressionInvalidError extends PatrolError {
  override name = 'AlertRuleExpressionInvalidError';
  override status: number = ERRORS.AlertRuleExpressionInvalid.status;
  override code: number = ErrorCode.AlertRuleExpressionInvalid;
  constructor(message: string, where: { column: number; expected: Expected[]; found: string }) {
    super(message);
    // The column is a number on the wire (issue 45's contract), where other refusals' extras are
    // field texts; the envelope sends `extra` as it is.
    this.extra = { column: where.column, expected: where.expected, found: where.found } as unknown as Record<
      string,
      string
    >;
  }
}
