// Sites API figures on the local stack: 10,000 accounts over 500 sites, loaded through
// POST /sites, then the median and p95 latency and the read units (x-consumed-rcu) of the
// lists the Sites and Accounts screens ask for. Latency is what a browser sees: HTTP, auth,
// the list engine on dynalite, the joins (site names) and password decryption of a page.
// BENCH_SITES=50 BENCH_REPS=10 shorten a run (BENCH_ACCOUNTS, BENCH_LOAD_CONCURRENCY too).

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { apiCaller } from './apiCaller.js';
import { startLocalStack } from '../scripts/local/stack.js';

const SITES = Number(process.env.BENCH_SITES ?? 500);
const ACCOUNTS = Number(process.env.BENCH_ACCOUNTS ?? 20);
const REPS = Number(process.env.BENCH_REPS ?? 30);
const LOAD_CONCURRENCY = Number(process.env.BENCH_LOAD_CONCURRENCY ?? 6);
const ADMIN_PASSWORD = 'bench-admin-pass-1';

const pad = (n: number) => String(n).padStart(4, '0');
const siteName = (i: number) => `Site-${pad(i)}`;
// One bot per slot on every site: searching `bot07` finds one account per site, as an operator
// looking for a bot across sites would.
const accountUser = (site: number, slot: number) => `bot${String(slot).padStart(2, '0')}-s${pad(site)}`;

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
}

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' / ');

const dataDir = mkdtempSync(join(tmpdir(), 'patrol-bench-sites-'));
const stack = await startLocalStack({
  dataDir,
  port: 0,
  demo: false,
  quiet: true,
  adminPassword: ADMIN_PASSWORD,
  secondFactor: 'off',
});

const call = apiCaller(stack.url);

interface Figure {
  scenario: string;
  query: string;
  median_ms: number;
  p95_ms: number;
  rcu: number;
  rows: number;
  total: number;
}

try {
  const token = (
    (await call('POST', '/login', undefined, { username: 'admin', password: ADMIN_PASSWORD })).data as {
      jwt: string;
    }
  ).jwt;

  console.log(
    `load: ${SITES} sites x ${ACCOUNTS} accounts through POST /sites, ${LOAD_CONCURRENCY} in parallel; load average ${load()}`,
  );
  const siteIds: number[] = [];
  let next = 1;
  const loadStarted = performance.now();
  await Promise.all(
    Array.from({ length: LOAD_CONCURRENCY }, async () => {
      while (next <= SITES) {
        const i = next++;
        const accounts = Array.from({ length: ACCOUNTS }, (_, a) => ({
          user: accountUser(i, a + 1),
          pwd: `pw-${i}-${a}`,
        }));
        const { data } = await call('POST', '/sites', token, {
          name: siteName(i),
          url: `https://s${i}.example.com`,
          accounts,
        });
        siteIds[i] = (data as { id: number }).id;
      }
    }),
  );
  const loadSeconds = (performance.now() - loadStarted) / 1000;
  const loadFigures = {
    seconds: loadSeconds,
    sites_per_s: SITES / loadSeconds,
    accounts_per_s: (SITES * ACCOUNTS) / loadSeconds,
    ms_per_site: (loadSeconds * 1000 * LOAD_CONCURRENCY) / SITES,
  };
  console.log(
    `load: ${loadSeconds.toFixed(1)} s, ${loadFigures.sites_per_s.toFixed(2)} sites/s, ${loadFigures.accounts_per_s.toFixed(
      0,
    )} accounts/s (${loadFigures.ms_per_site.toFixed(0)} ms per POST /sites of ${ACCOUNTS} accounts)`,
  );

  const midSite = siteIds[Math.ceil(SITES / 2)];
  const scenarios: [string, string][] = [
    ['sites default page', '/sites'],
    ['sites page 10', '/sites?page=10'],
    ['sites name filter', `/sites?name=${encodeURIComponent('Site-012')}`],
    ['accounts default page', '/sites/accounts'],
    ['accounts page 10', '/sites/accounts?page=10'],
    ['accounts of one site', `/sites/accounts?site_id=${encodeURIComponent(`=-${midSite}`)}`],
    ['accounts keyword user', '/sites/accounts?keyword=bot07&keywordField=user'],
  ];

  const figures: Figure[] = [];
  console.log(`\n${REPS} requests each after one warm-up; page_size 20; load average ${load()}`);
  console.log('scenario                 median ms   p95 ms      RCU   rows   total');
  for (const [scenario, query] of scenarios) {
    await call('GET', query, token);
    const times: number[] = [];
    let last: { data: unknown; rcu: number } | undefined;
    for (let r = 0; r < REPS; r++) {
      const t = performance.now();
      last = await call('GET', query, token);
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    const page = last?.data as { result: unknown[]; total_count: number };
    const fig: Figure = {
      scenario,
      query,
      median_ms: quantile(times, 0.5),
      p95_ms: quantile(times, 0.95),
      rcu: last?.rcu ?? Number.NaN,
      rows: page.result.length,
      total: page.total_count,
    };
    figures.push(fig);
    console.log(
      `${scenario.padEnd(24)} ${fig.median_ms.toFixed(1).padStart(8)} ${fig.p95_ms.toFixed(1).padStart(8)} ${fig.rcu
        .toFixed(1)
        .padStart(8)} ${String(fig.rows).padStart(6)} ${String(fig.total).padStart(7)}`,
    );
  }
  const loadAfter = loadavg();
  console.log(`load average at the end: ${load()} (2 cores; other engineers' runs share them)`);

  const out = join(import.meta.dirname ?? '.', 'results');
  mkdirSync(out, { recursive: true });
  writeFileSync(
    join(out, 'sites.json'),
    JSON.stringify(
      {
        at: new Date().toISOString(),
        sites: SITES,
        accounts_per_site: ACCOUNTS,
        reps: REPS,
        load: loadFigures,
        figures,
        loadavg: loadAfter,
      },
      null,
      2,
    ),
  );
} finally {
  await stack.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
