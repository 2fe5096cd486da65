// ResourceTable render time in real headless Chromium, for 100 rows (one page of 100) and 1,000
// rows (page size All, virtualised). A harness page is built with Vite in production mode; its
// fetch is stubbed in the page so only rendering is measured. Per size: first render (mount ->
// rows painted) and re-render (Refresh with new data -> new rows painted), median of BENCH_REPS
// runs after one warm-up; plus the p95 frame interval while scrolling the 1,000-row page.
// Run: npx tsx bench/tableRender.bench.ts   (BENCH_REPS=3 for a quick look)

import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { chromium } from 'playwright-core';
import { build } from 'vite';
import { CHROMIUM_FLAGS } from '../functions/checks/browser/launchBrowser.js';

const repo = resolve(import.meta.dirname, '..');
const REPS = Number(process.env.BENCH_REPS ?? 7);
const SIZES = [100, 1000];

type BenchWindow = { bench: Record<string, (n?: number) => unknown> };

// Inside node_modules so the harness resolves the project's packages.
const work = join(repo, 'node_modules/.cache/patrol-table-bench');
const outDir = join(work, 'dist');

const HARNESS = `
import { FluentProvider, webLightTheme } from '@fluentui/react-components';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createRoot } from 'react-dom/client';
import { col, defineResource, ResourceTable } from '@/components/table';
import { SubAccountStatus } from '@shared/enums';

interface Row {
  id: number; name: string; url: string; status: number; enable: boolean;
  balance: number; creator: { nickname: string } | null; created_at: number;
}
let rows: Row[] = [];
const makeRows = (n: number, salt: string): Row[] =>
  Array.from({ length: n }, (_, i) => ({
    id: i + 1, name: 'row-' + (i + 1) + '-' + salt, url: 'https://site' + i + '.example',
    status: [1, 2, 9, 99][i % 4], enable: i % 2 === 0, balance: i * 1234.5,
    creator: i % 3 ? { nickname: 'user' + (i % 7) } : null, created_at: 1_790_000_000_000 + i * 60_000,
  }));

window.fetch = async (input: RequestInfo | URL) => {
  const url = new URL(String(input), location.href);
  const data = { result: rows, total_count: rows.length, page: 1, page_size: Number(url.searchParams.get('page_size')) };
  return new Response(JSON.stringify({ code: 1000, msg: 'SUCCESS', data }), { headers: { 'Content-Type': 'application/json' } });
};

const save = () => Promise.resolve();
const resourceFor = (n: number) => defineResource<Row>({
  name: 'bench' + n, endpoint: '/bench', title: 'Bench', rowId: (r) => r.id, selectable: true,
  pageSize: n <= 100 ? 100 : 0,
  columns: [
    col.number('id', 'ID'),
    col.text('name', 'Name', { searchable: true, filter: true, edit: { save } }),
    col.text('url', 'URL', { searchable: true, edit: { save } }),
    col.enum('status', 'Status', SubAccountStatus, { filter: true }),
    col.boolean('enable', 'Enable', { filter: true, toggle: save }),
    col.number('balance', 'Balance', { filter: true, sortable: true }),
    col.user('creator', 'Creator'),
    col.datetime('created_at', 'Created At', { sortable: true, filter: 'range' }),
  ],
  rowActions: [{ label: 'Detail', onClick: () => {} }, { label: 'Delete', confirm: () => 'Sure?', onClick: () => {} }],
});

// Jank: the longest main-thread task (Long Tasks API, tasks over 50 ms) while a step runs.
const longTasks: { start: number; ms: number }[] = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) longTasks.push({ start: e.startTime, ms: e.duration });
}).observe({ type: 'longtask', buffered: false });
const longestSince = (t0: number) => Math.max(0, ...longTasks.filter((e) => e.start >= t0 - 1).map((e) => e.ms));
const frame = () => new Promise<number>((r) => requestAnimationFrame(() => r(performance.now())));
async function until(check: () => boolean): Promise<void> {
  while (!check()) await frame();
  await frame(); // the frame that paints it
}

let root: ReturnType<typeof createRoot> | null = null;
let host: HTMLDivElement | null = null;
const rowText = (tr: Element | null | undefined) => (tr?.textContent ?? '').replace(/^.*?(row-)/, '$1');
const firstName = () => rowText(host?.querySelector('tbody tr'));
// Done means every row of the page is on screen (pages mount in chunks), or the first rows of a virtualised one.
const bodyRows = () => [...(host?.querySelectorAll('tbody tr') ?? [])].filter((tr) => tr.querySelector('td'));
const allShown = (n: number, salt: string) => {
  const trs = bodyRows();
  return n > 200 ? rowText(trs[0]).startsWith('row-1-' + salt) : trs.length === n && rowText(trs[n - 1]).startsWith('row-' + n + '-' + salt);
};

(window as any).bench = {
  async mount(n: number) {
    rows = makeRows(n, 'a');
    host = document.createElement('div');
    document.body.appendChild(host);
    root = createRoot(host);
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const t0 = performance.now();
    root.render(
      <FluentProvider theme={webLightTheme}>
        <QueryClientProvider client={client}><ResourceTable resource={resourceFor(n)} /></QueryClientProvider>
      </FluentProvider>,
    );
    await until(() => allShown(n, 'a'));
    const ms = performance.now() - t0;
    await frame();
    return { ms, longestTaskMs: longestSince(t0), domRows: host.querySelectorAll('tbody tr').length };
  },
  async refresh(n: number) {
    rows = makeRows(n, 'b');
    const t0 = performance.now();
    (host!.querySelector('button[aria-label="Refresh"]') as HTMLButtonElement).click();
    await until(() => allShown(n, 'b'));
    const ms = performance.now() - t0;
    await frame();
    return { ms, longestTaskMs: longestSince(t0) };
  },
  async scroll() {
    const scroller = host!.querySelector('table')!.parentElement!;
    const gaps: number[] = [];
    let last = await frame();
    for (let i = 0; i < 60; i++) {
      scroller.scrollTop += 400;
      const now = await frame();
      gaps.push(now - last);
      last = now;
    }
    gaps.sort((a, b) => a - b);
    return { ms: gaps[Math.floor(gaps.length * 0.95)] };
  },
  unmount() {
    root?.unmount();
    host?.remove();
  },
};
`;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

async function buildHarness(): Promise<void> {
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  writeFileSync(join(work, 'main.tsx'), HARNESS);
  writeFileSync(
    join(work, 'index.html'),
    '<!doctype html><html><head><meta charset="utf-8"><title>bench</title></head>' +
      '<body style="margin:0;width:1280px"><script type="module" src="./main.tsx"></script></body></html>',
  );
  await build({
    configFile: false,
    root: work,
    base: './',
    logLevel: 'warn',
    plugins: [react()],
    resolve: { alias: { '@': join(repo, 'web/src'), '@shared': join(repo, 'shared') } },
    build: { outDir, emptyOutDir: true, minify: true, chunkSizeWarningLimit: 10_000 },
  });
}

function serve(dir: string): Promise<{ url: string; close(): void }> {
  const types: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };
  const server = createServer(async (req, res) => {
    const asked = join(dir, decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname));
    const path = asked.endsWith('/') ? join(asked, 'index.html') : asked;
    try {
      const body = await readFile(path);
      res.writeHead(200, { 'Content-Type': types[extname(path)] ?? 'application/octet-stream' }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  return new Promise((ok) =>
    server.listen(0, '127.0.0.1', () =>
      ok({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, close: () => server.close() }),
    ),
  );
}

await buildHarness();
// Figures are wall/busy times; on a shared 2-core box the load average says how much to discount them.
const loadBefore = loadavg()[0];
const site = await serve(outDir);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: [...CHROMIUM_FLAGS] });
const results: Record<string, unknown> = {};
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.addInitScript(() =>
    (globalThis as unknown as { localStorage: { setItem(k: string, v: string): void } }).localStorage.setItem(
      'patrol.locale',
      'en',
    ),
  );
  page.on('pageerror', (e) => console.error('page error:', e.message));
  await page.goto(site.url);
  await page.waitForFunction(() => 'bench' in globalThis);
  // Wall time suffers when the machine is shared; main-thread busy time (CDP TaskDuration) much less.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const busy = async () => {
    const { metrics } = await cdp.send('Performance.getMetrics');
    return (metrics.find((m) => m.name === 'TaskDuration')?.value ?? 0) * 1000;
  };
  type Step = 'mount' | 'refresh' | 'scroll';
  const step = async (name: Step, n: number) => {
    const before = await busy();
    const r = (await page.evaluate(([s, size]) => (globalThis as unknown as BenchWindow).bench[s](size), [
      name,
      n,
    ] as const)) as {
      ms: number;
      longestTaskMs?: number;
      domRows?: number;
    };
    return { ...r, busy: (await busy()) - before };
  };
  for (const n of SIZES) {
    const once = async () => {
      const mount = await step('mount', n);
      const refresh = await step('refresh', n);
      const scroll = n > 200 ? await step('scroll', n) : null;
      await page.evaluate(() => (globalThis as unknown as BenchWindow).bench.unmount());
      return { mount, refresh, scroll };
    };
    await once(); // warm-up: JIT and style injection
    const runs: Awaited<ReturnType<typeof once>>[] = [];
    for (let i = 0; i < REPS; i++) runs.push(await once());
    const m = (f: (r: (typeof runs)[number]) => number) => +median(runs.map(f)).toFixed(1);
    const figures = {
      firstRenderMs: m((r) => r.mount.ms),
      firstRenderBusyMs: m((r) => r.mount.busy),
      firstRenderLongestTaskMs: m((r) => r.mount.longestTaskMs ?? 0),
      reRenderMs: m((r) => r.refresh.ms),
      reRenderBusyMs: m((r) => r.refresh.busy),
      reRenderLongestTaskMs: m((r) => r.refresh.longestTaskMs ?? 0),
      domRows: runs[0].mount.domRows,
      ...(n > 200 ? { scrollFrameP95Ms: m((r) => r.scroll!.ms) } : {}),
    };
    results[`${n} rows`] = figures;
    console.log(`${String(n).padStart(5)} rows:`, JSON.stringify(figures));
  }
} finally {
  await browser.close();
  site.close();
}
mkdirSync(join(repo, 'bench/results'), { recursive: true });
writeFileSync(
  join(repo, 'bench/results/tableRender.json'),
  `${JSON.stringify({ measuredAt: new Date().toISOString(), reps: REPS, chromium: '/usr/bin/chromium headless', loadAverage1m: { before: +loadBefore.toFixed(1), after: +loadavg()[0].toFixed(1) }, results }, null, 2)}\n`,
);
