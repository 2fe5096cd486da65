import { DATE_FORMAT, DATE_TIME_FORMAT, TIME_FORMAT } from '@/app/constants';
import dayjs from 'dayjs';
import type { Column, FilterInput } from './types';

type T = (key: string, vars?: Record<string, unknown>) => string;

function momentText(kind: Column<unknown>['kind'], ms: number | null): string {
  if (ms === null) return '…';
  if (kind === 'time') return dayjs().startOf('day').add(ms, 'ms').format(TIME_FORMAT);
  return dayjs(ms).format(kind === 'date' ? DATE_FORMAT : DATE_TIME_FORMAT.replace(':ss', ''));
}

/** What an active filter tag reads, e.g. 'Enable: Yes', 'Created: 5 minutes'. */
export function filterSummary(column: Column<unknown>, input: FilterInput, t: T): string {
  let text: string;
  switch (input.kind) {
    case 'text':
      text = input.value;
      break;
    case 'boolean':
      text = t(input.value ? 'Yes' : 'No');
      break;
    case 'enum':
      text = input.values.map((v) => t(column.enumDef?.label(v) ?? String(v))).join(', ');
      break;
    case 'number':
      text = `${input.op} ${input.value}`;
      break;
    case 'moment':
      text = momentText(column.kind, input.at);
      break;
    case 'range':
      text = input.recent
        ? t(input.recent)
        : `${momentText(column.kind, input.start)} ~ ${momentText(column.kind, input.end)}`;
      break;
  }
  return `${t(column.label)}: ${text}`;
}
