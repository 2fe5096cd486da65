// The bank alert rules' condition language (issue 45 item 2; grammar in docs/bank-monitor.md,
// "Alert rules"): parsed the same way by the API, the poll and the console's editor.
export { evaluateRule, type RuleOutcome } from './evaluate.js';
export {
  type Figure,
  FIGURES,
  formatDuration,
  formatFigureValue,
  type RuleFigures,
  STATUS_NAMES,
} from './figures.js';
export {
  describeExpected,
  EXPECTED,
  type Expected,
  MAX_RULE_LENGTH,
  type ParseResult,
  parseRule,
  type Rule,
  type RuleExpr,
} from './parse.js';
export { msInRanges } from './rangeTime.js';
