import { defineEnum } from '@shared/enums';
import { field } from '@shared/listFields';
import type { ListFields, ListResult } from '@shared/listQuery';
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { col } from './col';
import { defineResource } from './defineResource';
import { fakeListServer, renderTable } from './testTable';
import type { ActionContext } from './types';

interface Site {
  id: number;
  name: string;
  url: string;
  enable: boolean;
  status: number;
  created_at: number;
}
const Status = defineEnum({ Enable: [1, 'Enable'], Disable: [2, 'Disable'] });
const fields: ListFields = {
  id: 'number',
  name: 'text',
  url: 'text',
  enable: 'boolean',
  status: 'enum',
  created_at: 'datetime',
};
const sites: Site[] = Array.from({ length: 25 }, (_, i) => ({
  id: i + 1,
  name: `site-${String(i + 1).padStart(2, '0')}`,
  url: `https://s${i + 1}.example`,
  enable: i % 2 === 0,
  status: i % 3 === 0 ? 2 : 1,
  created_at: Date.UTC(2026, 10, 1) + i * 3600_000,
}));

function sitesResource(extra: { onBatch?: (ctx: ActionContext<Site>) => void } = {}) {
  return defineResource<Site>({
    name: 'sites',
    endpoint: '/sites',
    title: 'Sites',
    listFields: fields,
    rowId: (s) => s.id,
    selectable: true,
    columns: [
      col.number('id', 'ID'),
      col.text('name', 'Name', { searchable: true, filter: true }),
      col.text('url', 'URL', { searchable: true }),
      col.boolean('enable', 'Enable', { filter: true }),
      col.enum('status', 'Status', Status, { filter: true }),
      col.datetime('created_at', 'Created At', { sortable: true, filter: 'range', hidden: true }),
    ],
    actions: [
      {
        label: 'BatchCheck',
        requiresSelection: 'Please select some sites first',
        onClick: (ctx) => extra.onBatch?.(ctx),
      },
    ],
  });
}

vi.setConfig({ testTimeout: 60_000 });

/**
 * Queries inside the open dialog. Fluent's focus trap (tabster) toggles aria-hidden on it
 * asynchronously, which jsdom on a busy machine can leave set for seconds, so these queries
 * include hidden nodes; roles and names are still what a user meets.
 */
async function openedDialog() {
  const dialog = await screen.findByRole('dialog', { hidden: true });
  const q = within(dialog);
  return {
    dialog,
    button: (name: string) => q.getByRole('button', { name, hidden: true }),
    checkbox: (name: string) => q.getByRole('checkbox', { name, hidden: true }),
    text: (text: string) => q.getByText(text),
  };
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
// Header texts straight from the DOM: role queries skip them while a modal dialog is open.
const headerNames = () => [...document.querySelectorAll('thead th')].map((h) => h.textContent?.trim());

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('ResourceTable', () => {
  it('shows the title, the first 20 rows and the total, and asks for page 1 of 20', async () => {
    const server = fakeListServer('/sites', sites, fields);
    renderTable(sitesResource());
    expect(await screen.findByText('site-01')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Sites' })).toBeInTheDocument();
    expect(screen.getByText('site-20')).toBeInTheDocument();
    expect(screen.queryByText('site-21')).not.toBeInTheDocument();
    expect(screen.getByText('1-20 of 25')).toBeInTheDocument();
    expect(Object.fromEntries(server.last())).toEqual({ page: '1', page_size: '20' });
  });

  it('offers a viewer no write: write actions are gone, switches do not move, edits are not offered', async () => {
    fakeListServer('/sites', sites, fields);
    const toggle = vi.fn(async () => undefined);
    const resource = defineResource<Site>({
      name: 'sites',
      endpoint: '/sites',
      title: 'Sites',
      listFields: fields,
      rowId: (s) => s.id,
      columns: [
        col.text('name', 'Name', { edit: { save: async () => undefined } }),
        col.boolean('enable', 'Enable', { toggle }),
      ],
      actions: [{ label: 'NewSite', write: true }, { label: 'Export help' }],
      rowActions: [{ label: 'Delete', write: true }, { label: 'Detail' }],
    });
    const { user } = renderTable(resource, {}, { jwt: 'token-viewer', name: 'Vera', s: 'viewer' });
    const row = (await screen.findByText('site-01')).closest('tr') as HTMLElement;
    expect(screen.queryByRole('button', { name: 'NewSite' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Export help' })).toBeInTheDocument();
    expect(within(row).queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
    expect(within(row).getByRole('button', { name: 'Detail' })).toBeInTheDocument();
    expect(within(row).queryByRole('button', { name: 'Edit Name' })).not.toBeInTheDocument();
    const enable = within(row).getByRole('switch', { name: 'Enable' });
    expect(enable).toBeDisabled();
    await user.click(enable).catch(() => undefined);
    expect(toggle).not.toHaveBeenCalled();
  });

  it('shows No result when the list is empty', async () => {
    fakeListServer('/sites', [], fields);
    renderTable(sitesResource());
    expect(await screen.findByText('No result')).toBeInTheDocument();
  });

  it('asks for page_size=0 and shows every row when All is chosen', async () => {
    const server = fakeListServer('/sites', sites, fields);
    const { user } = renderTable(sitesResource());
    await screen.findByText('site-01');
    await user.click(screen.getByRole('combobox', { name: 'Rows per page' }));
    await user.click(within(screen.getByRole('listbox')).getByRole('option', { name: 'All' }));
    expect(await screen.findByText('site-25')).toBeInTheDocument();
    expect(server.last().get('page_size')).toBe('0');
    expect(screen.getByText('1-25 of 25')).toBeInTheDocument();
  });

  it('keeps the current rows on screen while the next page loads', async () => {
    fakeListServer('/sites', sites, fields);
    const { user } = renderTable(sitesResource());
    await screen.findByText('site-01');
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    // Until page 2 arrives, page 1 stays (no empty table flash).
    expect(screen.queryByText('No result')).not.toBeInTheDocument();
    expect(await screen.findByText('site-21')).toBeInTheDocument();
    expect(screen.queryByText('site-01')).not.toBeInTheDocument();
  });

  it('says it jumped when Last page skips pages, and not when it pages on, goes back or shows a page again', async () => {
    const many = Array.from({ length: 100 }, (_, i) => ({ ...sites[i % 25], id: i + 1, name: `row-${i + 1}` }));
    const server = fakeListServer('/sites', many, fields);
    const { user } = renderTable(sitesResource());
    await screen.findByText('row-1');
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    expect(await screen.findByText('row-21')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Last page' }));
    expect(await screen.findByText('row-81')).toBeInTheDocument();
    // Page 4 after the jump to 5: neither it nor page 3 was shown, so no cursor leads to it.
    await user.click(screen.getByRole('button', { name: 'Previous page' }));
    expect(await screen.findByText('row-61')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    expect(await screen.findByText('row-81')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'First page' }));
    expect(await screen.findByText('row-1')).toBeInTheDocument();
    // Pages 5 and 1 again (from the cache or asked again) were shown before: no hint.
    expect(server.calls.map((c) => c.get('page'))).toContain('4');
    expect(server.jumps).toEqual(['5', '4']);
  });

  it('sends the sort as JSON when a sortable header is clicked, ascending then descending', async () => {
    const server = fakeListServer('/sites', sites, fields);
    localStorage.setItem('patrol.table.sites.columns', JSON.stringify({ created_at: true }));
    const { user } = renderTable(sitesResource());
    await screen.findByText('site-01');
    // The filter button sits in the same header cell and must not sort.
    await user.click(screen.getByRole('button', { name: 'Filter Created At' }));
    await user.keyboard('{Escape}');
    expect(server.last().has('sort')).toBe(false);
    await user.click(screen.getByRole('button', { name: 'Created At' }));
    await waitFor(() => expect(server.last().get('sort')).toBe('{"created_at":"asc"}'));
    await user.click(screen.getByRole('button', { name: 'Created At' }));
    await waitFor(() => expect(server.last().get('sort')).toBe('{"created_at":"desc"}'));
    expect(await screen.findByText('site-25')).toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: /Created At/ })).toHaveAttribute('aria-sort', 'descending');
  });

  describe('keyword search', () => {
    it('sends the keyword once, no sooner than 300 ms after the input, searching the chosen columns', async () => {
      const server = fakeListServer('/sites', sites, fields);
      const sentAt: number[] = [];
      const { user } = renderTable(sitesResource());
      await screen.findByText('site-01');
      const before = server.calls.length;
      const box = screen.getByRole('searchbox', { name: 'Search' });
      await user.click(box);
      const typedAt = performance.now();
      await user.paste('e-07');
      await waitFor(() => {
        if (server.last().get('keyword') !== 'e-07') throw new Error('not yet');
        sentAt.push(performance.now());
      });
      expect(sentAt[0] - typedAt).toBeGreaterThanOrEqual(300);
      expect(server.calls.slice(before).filter((c) => c.has('keyword'))).toHaveLength(1);
      expect(server.last().get('keywordField')).toBe('name,url');
      expect(await screen.findByText('1-1 of 1')).toBeInTheDocument();
    });

    it('warns "At least 3 chars" for one or two characters and sends nothing', async () => {
      const server = fakeListServer('/sites', sites, fields);
      const { user } = renderTable(sitesResource());
      await screen.findByText('site-01');
      const before = server.calls.length;
      await user.type(screen.getByRole('searchbox', { name: 'Search' }), 'ab');
      expect(await screen.findByText('At least 3 chars')).toBeInTheDocument();
      await act(() => sleep(400));
      expect(server.calls.length).toBe(before);
    });

    it('warns "At least 1 search field" when no search column is chosen and sends nothing', async () => {
      localStorage.setItem('patrol.table.sites.search', '[]');
      const server = fakeListServer('/sites', sites, fields);
      const { user } = renderTable(sitesResource());
      await screen.findByText('site-01');
      const before = server.calls.length;
      await user.type(screen.getByRole('searchbox', { name: 'Search' }), 'site');
      expect(await screen.findByText('At least 1 search field')).toBeInTheDocument();
      await act(() => sleep(400));
      expect(server.calls.length).toBe(before);
    });
  });

  describe('column settings', () => {
    it('hides a column from the column dialog and remembers it after a reload', async () => {
      fakeListServer('/sites', sites, fields);
      const first = renderTable(sitesResource());
      await screen.findByText('site-01');
      expect(headerNames()).toContain('URL');
      await first.user.click(screen.getByRole('button', { name: 'Columns' }));
      const dialog = await openedDialog();
      await first.user.click(dialog.checkbox('URL'));
      expect(headerNames()).not.toContain('URL');
      await first.user.click(dialog.button('Close'));
      first.unmount();

      const second = renderTable(sitesResource());
      await screen.findByText('site-01');
      expect(headerNames()).not.toContain('URL');
      expect(headerNames()).toContain('Name');
      second.unmount();
    });

    it('shows every column with All and flips them with Reverse', async () => {
      fakeListServer('/sites', sites, fields);
      const { user } = renderTable(sitesResource());
      await screen.findByText('site-01');
      expect(headerNames()).not.toContain('Created At');
      await user.click(screen.getByRole('button', { name: 'Columns' }));
      const dialog = await openedDialog();
      await user.click(dialog.button('All'));
      expect(headerNames()).toContain('Created At');
      await user.click(dialog.button('Reverse'));
      expect(headerNames().filter((h) => h && h !== 'Operations')).toEqual([]);
    });

    it('applies search columns only on Save, and restores them after a reload', async () => {
      const server = fakeListServer('/sites', sites, fields);
      const first = renderTable(sitesResource());
      await screen.findByText('site-01');
      await first.user.click(screen.getByRole('button', { name: 'Search Columns' }));
      const dialog = await openedDialog();
      expect(dialog.text('Save to take effect')).toBeInTheDocument();
      await first.user.click(dialog.checkbox('URL'));
      await first.user.click(dialog.button('Save'));
      // The closing dialog's focus trap may still hide the page from role queries for a moment.
      await first.user.type(await screen.findByRole('searchbox', { name: 'Search', hidden: true }), 'site');
      await waitFor(() => expect(server.last().get('keywordField')).toBe('name'));
      expect(JSON.parse(localStorage.getItem('patrol.table.sites.search')!)).toEqual(['name']);
      first.unmount();

      const second = renderTable(sitesResource());
      await screen.findByText('site-01');
      await second.user.click(screen.getByRole('button', { name: 'Search Columns' }));
      const reopened = await openedDialog();
      expect(reopened.checkbox('URL')).not.toBeChecked();
      expect(reopened.checkbox('Name')).toBeChecked();
      await second.user.click(reopened.button('Reset'));
      expect(reopened.checkbox('URL')).toBeChecked();
    });
  });

  describe('filters', () => {
    it('filters a boolean column to No with enable=false and shows only those rows', async () => {
      const server = fakeListServer('/sites', sites, fields);
      const { user } = renderTable(sitesResource());
      await screen.findByText('site-01');
      await user.click(screen.getByRole('button', { name: 'Filter Enable' }));
      await user.click(await screen.findByRole('radio', { name: 'No' }));
      await waitFor(() => expect(server.last().get('enable')).toBe('false'));
      expect(await screen.findByText('1-12 of 12')).toBeInTheDocument();
      expect(screen.queryByText('site-01')).not.toBeInTheDocument();
      expect(server.last().get('page')).toBe('1');
    });

    it('filters an enum column by the ticked values and clears it from its tag', async () => {
      const server = fakeListServer('/sites', sites, fields);
      const { user } = renderTable(sitesResource());
      await screen.findByText('site-01');
      await user.click(screen.getByRole('button', { name: 'Filter Status' }));
      await user.click(await screen.findByRole('checkbox', { name: 'Disable' }));
      await waitFor(() => expect(server.last().get('status')).toBe('2'));
      await user.keyboard('{Escape}');
      await user.click(await screen.findByRole('button', { name: /Status: Disable/ }));
      // Back to the unfiltered list: every row again (served from the query cache, so no new request).
      expect(await screen.findByText('1-20 of 25')).toBeInTheDocument();
      expect(screen.queryByRole('button', { name: /Status: Disable/ })).not.toBeInTheDocument();
    });

    it('filters a text column on Apply', async () => {
      const server = fakeListServer('/sites', sites, fields);
      const { user } = renderTable(sitesResource());
      await screen.findByText('site-01');
      await user.click(screen.getByRole('button', { name: 'Filter Name' }));
      await user.type(await screen.findByRole('textbox', { name: 'Name' }), 'site-1{Enter}');
      await waitFor(() => expect(server.last().get('name')).toBe('site-1'));
      expect(await screen.findByText('1-10 of 10')).toBeInTheDocument();
    });
  });

  it('copies an id cell and says Copy Success', async () => {
    fakeListServer('/sites', sites, fields);
    const { user } = renderTable(sitesResource());
    await screen.findByText('site-01');
    const row = screen.getByText('site-03').closest('tr')!;
    await user.click(within(row).getByRole('button', { name: 'Copy' }));
    expect(await screen.findByText('Copy Success')).toBeInTheDocument();
    expect(await navigator.clipboard.readText()).toBe('3');
  });

  it('keeps BatchCheck disabled until rows are selected, then shows the count and hands over the rows', async () => {
    fakeListServer('/sites', sites, fields);
    const onBatch = vi.fn();
    const { user } = renderTable(sitesResource({ onBatch }));
    await screen.findByText('site-01');
    const batch = screen.getByRole('button', { name: 'BatchCheck' });
    expect(batch).toHaveAttribute('aria-disabled', 'true');
    await user.hover(batch);
    expect(await screen.findByText('Please select some sites first')).toBeInTheDocument();

    for (const name of ['site-02', 'site-05']) {
      await user.click(within(screen.getByText(name).closest('tr')!).getByRole('checkbox'));
    }
    const enabled = screen.getByRole('button', { name: 'BatchCheck (2)' });
    await user.click(enabled);
    expect(onBatch).toHaveBeenCalledTimes(1);
    expect(onBatch.mock.calls[0][0].selected.map((s: Site) => s.id)).toEqual([2, 5]);
  });

  it('exports the selected rows as a CSV file named by the time', async () => {
    fakeListServer('/sites', sites, fields);
    const blobs: Blob[] = [];
    const names: string[] = [];
    // jsdom has no object URLs; the table's download goes through these two.
    Object.assign(URL, {
      createObjectURL: (b: Blob) => {
        blobs.push(b);
        return 'blob:export';
      },
      revokeObjectURL() {},
    });
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      names.push(this.download);
    });
    const { user } = renderTable(sitesResource());
    await screen.findByText('site-01');
    await user.click(within(screen.getByText('site-04').closest('tr')!).getByRole('checkbox'));
    await user.click(screen.getByRole('button', { name: 'Export' }));
    await user.click(await screen.findByRole('menuitem', { name: 'CSV' }));
    expect(names[0]).toMatch(/^sites-\d{8}-\d{6}\.csv$/);
    const bytes = await new Promise<ArrayBuffer>((resolve) => {
      const reader = new FileReader();
      reader.onload = () => resolve(reader.result as ArrayBuffer);
      reader.readAsArrayBuffer(blobs[0]);
    });
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
    expect(text).toBe('\uFEFFID,Name,URL,Enable,Status\r\n4,site-04,https://s4.example,false,Disable\r\n');
    click.mockRestore();
  });
});

describe('column help', () => {
  it('explains a column from an info button in its header, without sorting or filtering it', async () => {
    const server = fakeListServer('/sites', sites, fields);
    const resource = defineResource<Site>({
      name: 'sitesHelp',
      endpoint: '/sites',
      title: 'Sites',
      listFields: fields,
      rowId: (s) => s.id,
      columns: [
        col.text('name', 'Name', { sortable: true, help: 'The name operators know the site by' }),
        col.text('url', 'URL'),
      ],
    });
    const { user } = renderTable(resource);
    await screen.findByText('site-01');
    const calls = server.calls.length;

    await user.click(screen.getByRole('button', { name: 'Name · Help' }));
    expect(await screen.findByText('The name operators know the site by')).toBeVisible();
    // The button sits beside the sort button: no new list call, no sort sent.
    expect(server.calls.length).toBe(calls);
    expect(screen.queryByRole('button', { name: 'URL · Help' })).not.toBeInTheDocument();
  });
});

describe('a partial total', () => {
  // The server stopped at its read budget: the total counts matches among the newest rows it read.
  const partial = (total: number, searched: number) => ({
    reply: (data: ListResult<unknown>): ListResult<unknown> => ({
      ...data,
      total_count: total,
      total_exact: false,
      searched,
    }),
  });

  it('shows the total as N+ with how many rows were searched', async () => {
    fakeListServer('/sites', sites, fields, partial(2000, 5000));
    renderTable(sitesResource());
    await screen.findByText('site-01');
    expect(screen.getByText('1-20 of 2,000+')).toBeInTheDocument();
    expect(screen.getByText('Searched the newest 5,000 rows')).toBeInTheDocument();
    expect(screen.getByText('Page 1 of 100+')).toBeInTheDocument();
  });

  it('offers the next page while the page is full, though the partial total fits on this one', async () => {
    const server = fakeListServer('/sites', sites, fields, partial(20, 1000));
    const { user } = renderTable(sitesResource());
    await screen.findByText('site-01');
    expect(screen.getByText('1-20 of 20+')).toBeInTheDocument();
    const next = screen.getByRole('button', { name: 'Next page' });
    expect(next).toBeEnabled();
    await user.click(next);
    await waitFor(() => expect(server.last().get('page')).toBe('2'));
    expect(await screen.findByText('site-21')).toBeInTheDocument();
    // Page 2 is not full: nothing past it.
    expect(screen.getByRole('button', { name: 'Next page' })).toBeDisabled();
  });

  it('keeps an exact total plain and stops at its last page', async () => {
    fakeListServer('/sites', sites.slice(0, 20), fields);
    renderTable(sitesResource());
    await screen.findByText('site-01');
    expect(screen.getByText('1-20 of 20')).toBeInTheDocument();
    expect(screen.queryByText(/Searched the newest/)).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next page' })).toBeDisabled();
  });
});

describe('offers from the list declaration', () => {
  it('offers sort, a filter and keyword search only where the declaration does', async () => {
    // name: searchable only; url: sort and filter; status: not declared at all.
    const declared = {
      id: field.number({ sort: 'key', filter: 'bounded' }),
      name: field.text({ search: true }),
      url: field.text({ sort: 'bounded', filter: 'bounded' }),
      created_at: field.datetime({ sort: 'key', filter: 'key' }),
    };
    const server = fakeListServer('/sites', sites, declared);
    const resource = defineResource<Site>({
      name: 'sitesDeclared',
      endpoint: '/sites',
      title: 'Sites',
      listFields: declared,
      rowId: (s) => s.id,
      columns: [
        col.text('name', 'Name', { sortable: true, filter: true, searchable: true }),
        col.text('url', 'URL', { sortable: true, filter: true, searchable: true }),
        col.enum('status', 'Status', Status, { sortable: true, filter: true }),
        col.datetime('created_at', 'Created At', { sortable: true, filter: 'range' }),
      ],
    });
    const { user } = renderTable(resource);
    await screen.findByText('site-01');

    for (const name of ['Name', 'Status']) {
      expect(screen.queryByRole('button', { name })).not.toBeInTheDocument();
      expect(screen.queryByRole('button', { name: `Filter ${name}` })).not.toBeInTheDocument();
    }
    expect(screen.getByRole('button', { name: 'URL' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Filter URL' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Created At' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Filter Created At' })).toBeInTheDocument();

    // The keyword searches the declared field only; the server takes it (no 400, rows come back).
    await user.type(screen.getByRole('searchbox', { name: 'Search' }), 'e-07');
    await waitFor(() => expect(server.last().get('keyword')).toBe('e-07'));
    expect(server.last().get('keywordField')).toBe('name');
    expect(await screen.findByText('1-1 of 1')).toBeInTheDocument();
  });
});
