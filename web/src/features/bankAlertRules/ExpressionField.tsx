import { Field, makeStyles, Textarea, tokens } from '@fluentui/react-components';
import type { Expected } from '@shared/alertRules/index';
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import { useT } from '@/i18n';
import { type ExpressionProblem, expressionProblem } from './alertRuleForm';

const useStyles = makeStyles({
  input: { fontFamily: tokens.fontFamilyMonospace },
  pointer: {
    fontFamily: tokens.fontFamilyMonospace,
    fontSize: tokens.fontSizeBase200,
    margin: 0,
    whiteSpace: 'pre',
    overflowX: 'auto',
    color: tokens.colorPaletteRedForeground1,
  },
});

/** What the parser expected, in the user's words (the keys of shared/alertRules' EXPECTED). */
export const EXPECTED_WORDS: Record<Expected, string> = {
  figure: 'a figure (balance, credit, debit, no_statement_for, drift, status)',
  open: '"("',
  close: '")"',
  comparison: 'a comparison (<, <=, >, >=, =, !=)',
  equality: '= or !=',
  amount: 'an amount such as 1,000,000',
  duration: 'a duration such as 30m, 2h or 1d',
  status: 'a status (Enable, Incorrect, Locked, Wrong, Disable)',
  and: '"and"',
  or: '"or"',
  end: 'the end of the condition',
};

/** "Column 11: expected an amount such as 1,000,000, found "2h"". */
export function problemText(t: TFunction, p: ExpressionProblem): string {
  const words = p.expected.map((e) => t(EXPECTED_WORDS[e]));
  const expected =
    words.length < 2 ? (words[0] ?? '') : t('{a} or {b}', { a: words.slice(0, -1).join(', '), b: words.at(-1) });
  return p.found
    ? t('Column {column}: expected {expected}, found "{found}"', { column: p.column, expected, found: p.found })
    : t('Column {column}: expected {expected}, found the end', { column: p.column, expected });
}

/** The condition, a window of it around the column, and a caret under the column. */
function pointerLines(expression: string, column: number): string {
  const at = column - 1;
  const start = Math.max(0, at - 40);
  return `${expression.slice(start, at + 40).replace(/\s/g, ' ')}\n${' '.repeat(at - start)}^`;
}

/**
 * The condition's input. It is parsed as one types, by the parser the API uses: a condition that
 * does not parse is marked at its column (a caret under the text) with what was expected there.
 */
export function ExpressionField({
  value,
  onChange,
  message,
}: {
  value: string;
  onChange: (value: string) => void;
  /** The form's own refusal (empty on submit). */
  message?: string;
}): ReactNode {
  const t = useT();
  const styles = useStyles();
  const problem = expressionProblem(value);
  return (
    <Field
      label={t('Condition')}
      required
      validationState={problem || message ? 'error' : 'none'}
      validationMessage={
        problem ? (
          <span data-testid="expression-problem">
            <pre className={styles.pointer} aria-hidden>
              {pointerLines(value, problem.column)}
            </pre>
            {problemText(t, problem)}
          </span>
        ) : (
          message
        )
      }
      hint={problem ? undefined : t('Example: balance < 1,000,000 or no_statement_for > 2h')}
    >
      <Textarea
        className={styles.input}
        textarea={{ className: styles.input, spellCheck: false }}
        resize="vertical"
        value={value}
        onChange={(_, d) => onChange(d.value)}
      />
    </Field>
  );
}
