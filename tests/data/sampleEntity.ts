// A sample entity with every field kind the list protocol knows, two parents, a hidden field,
// soft delete and a TTL: the contract tests exercise the repository through it.

import { defineEntity } from '../../functions/lib/db/entity.js';
import { defineEnum } from '../../shared/enums.js';
import { field, keyOrderFields } from '../../shared/listFields.js';

const SampleStatus = defineEnum({ New: [1, 'New'], Open: [2, 'Open'], Done: [3, 'Done'] });

export interface Sample {
  id: number;
  created_at: number;
  updated_at?: number;
  name: string;
  note?: string;
  enable: boolean;
  status: number;
  score: number;
  seen_at?: number;
  task_id?: number;
  subtask_id?: number;
  hits?: number;
  secret?: string;
}

export const sampleDef = defineEntity<Sample>({
  type: 'sample',
  fields: {
    ...keyOrderFields,
    name: field.text({ sort: 'bounded', filter: 'bounded', search: true }),
    note: field.text({ sort: 'bounded', filter: 'bounded', search: true }),
    enable: field.boolean({ sort: 'bounded', filter: 'key' }),
    status: field.enum(SampleStatus, { sort: 'bounded', filter: 'key' }),
    score: field.number({ sort: 'bounded', filter: 'bounded' }),
    seen_at: field.datetime({ sort: 'bounded', filter: 'bounded' }),
    task_id: field.number({ filter: 'key' }),
    subtask_id: field.number({ filter: 'key' }),
  },
  keys: ['task_id', 'subtask_id', 'status', 'enable'],
  softDelete: true,
  ttlSeconds: 3600,
  hidden: ['secret'],
});

export const BASE = Date.UTC(2026, 10, 1);
const NAMES = ['Alpha', 'Bravo', 'Charlie', 'Delta'];

/** Row i of the list fixture: created one second apart, values spread over every filter. */
export function sampleRow(i: number): Omit<Sample, 'id'> {
  return {
    created_at: BASE + i * 1000,
    name: `${NAMES[i % 4]} Site ${i}`,
    note: i % 3 === 0 ? 'Needs REVIEW' : 'ok',
    enable: i % 2 === 0,
    status: [1, 2, 3][i % 3],
    score: i * 10 - 50,
    seen_at: BASE + i * 500,
    task_id: i < 12 ? 1 : 2,
    subtask_id: 100 + (i % 6),
  };
}
