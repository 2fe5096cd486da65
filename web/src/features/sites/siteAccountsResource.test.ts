import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { buildCsv, buildJson } from '@/components/table/exportRows';
import { siteAccountsResource } from './siteAccountsResource';

describe('the Account table', () => {
  it('exports no Pwd column, even for a row that somehow carried a password', () => {
    const resource = siteAccountsResource(new QueryClient());
    const pwd = resource.columns.find((c) => c.id === 'pwd');
    expect(pwd?.label).toBe('Pwd');
    expect(pwd?.exportable).toBe(false);
    expect(pwd?.edit).toBeDefined();

    const row = {
      id: 1,
      site_id: 2,
      user: 'agent01',
      pwd: 'leaked',
      enable: true,
      status: 1,
      created_at: 0,
      site: null,
    };
    const exported = resource.columns.filter((c) => c.exportable);
    const csv = buildCsv([row] as never[], exported);
    const json = buildJson([row] as never[], exported);
    expect(csv).not.toContain('Pwd');
    expect(csv).not.toContain('leaked');
    expect(json).not.toContain('leaked');
  });
});
