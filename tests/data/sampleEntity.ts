// A sample entity with every field kind the list protocol knows, two parents, a hidden field,
// soft delete and a TTL: the contract tests exercise the repository through it.

import { defineEntity } from '../../functions/lib/db/entity.js';

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
    id: 'number',
    name: 'text',
    note: 'text',
    enable: 'boolean',
    status: 'enum',
    score: 'number',
    seen_at: 'datetime',
    created_at: 'datetime',
    task_id: 'number',
    subtask_id: 'number',
  },
  searchable: ['name', 'note'],
  parents: { byParent: 'task_id', byParent2: 'subtask_id' },
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
