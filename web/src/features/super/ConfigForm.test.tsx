import { fireEvent, render } from '@testing-library/react';
import type { ConfigField } from '@shared/schemas/systemConfig';
import { describe, expect, it, vi } from 'vitest';
import { Providers } from '@/test/renderApp';
import { ConfigForm } from './ConfigForm';

// One integer setting and one that may be left unset (a time budget), as the Checker section has.
const fields: ConfigField[] = [
  { path: 'checker.retries', label: 'Retries', kind: 'integer', section: 'Checker' },
  { path: 'checker.time_budget_ms.2', label: 'Budget', kind: 'optionalInteger', section: 'Checker', unit: 'ms' },
];

function renderForm(value: unknown) {
  const onChange = vi.fn();
  render(
    <Providers>
      <ConfigForm fields={fields} value={value} onChange={onChange} errors={{}} />
    </Providers>,
  );
  const input = (path: string) => document.querySelector(`input[name="${path}"]`) as HTMLInputElement;
  return { onChange, input };
}

describe('the config form’s number inputs', () => {
  it('sends a whole number as a number, and anything else as typed so the schema can name it', () => {
    const { onChange, input } = renderForm({ checker: { retries: 1, time_budget_ms: {} } });
    expect(input('checker.retries').value).toBe('1');
    fireEvent.change(input('checker.retries'), { target: { value: '2' } });
    expect(onChange).toHaveBeenLastCalledWith('checker.retries', 2);
    fireEvent.change(input('checker.time_budget_ms.2'), { target: { value: '1500' } });
    expect(onChange).toHaveBeenLastCalledWith('checker.time_budget_ms.2', 1500);
    fireEvent.change(input('checker.retries'), { target: { value: '1.5' } });
    expect(onChange).toHaveBeenLastCalledWith('checker.retries', '1.5');
  });

  it('unsets an optional setting left empty, while an emptied required one is sent empty for the schema to refuse', () => {
    const { onChange, input } = renderForm({ checker: { retries: 1, time_budget_ms: { '2': 1500 } } });
    const budget = input('checker.time_budget_ms.2');
    expect(budget.value).toBe('1500');
    fireEvent.change(budget, { target: { value: '' } });
    expect(onChange).toHaveBeenLastCalledWith('checker.time_budget_ms.2', undefined);
    fireEvent.change(input('checker.retries'), { target: { value: '' } });
    expect(onChange).toHaveBeenLastCalledWith('checker.retries', '');
  });

  it('says "None" in an unset optional setting only', () => {
    const { input } = renderForm({ checker: { retries: 1, time_budget_ms: {} } });
    expect(input('checker.time_budget_ms.2').placeholder).toBe('None');
    expect(input('checker.retries').placeholder).toBe('');
  });
});
