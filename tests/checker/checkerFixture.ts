// One sandbox site and one Chromium for a test file: the checker is tested the way it runs,
// against real pages in a real browser, without the rest of the stack.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Browser } from 'puppeteer-core';
import type { ProcessValue, TestModeValue } from '../../shared/schemas/checkResults';
import { launchBrowser } from '../../functions/checks/browser/launchBrowser';
import { type RunCheckOptions, runCheck } from '../../functions/checks/browser/runCheck';
import { SANDBOX_PASSWORD, type SandboxSiteHandle, startSandboxSite } from '../../scripts/sandbox/site/server';

export interface CheckerFixture {
  site: SandboxSiteHandle;
  browser: Browser;
  check<P extends ProcessValue>(
    process: P,
    opts?: Partial<Omit<RunCheckOptions<P>, 'process' | 'browser'>> & { user?: string },
  ): ReturnType<typeof runCheck<P>>;
  close(): Promise<void>;
}

export async function startCheckerFixture(siteOpts: { slowMs?: number } = {}): Promise<CheckerFixture> {
  const [site, browser] = await Promise.all([startSandboxSite({ port: 0, ...siteOpts }), launchBrowser()]);
  return {
    site,
    browser,
    check: (process, opts = {}) => {
      const { user = 'agent01', ...rest } = opts;
      return runCheck({
        browser,
        site: { url: site.url },
        account: { user, pwd: SANDBOX_PASSWORD },
        mode: 1 as TestModeValue,
        process,
        // Margins for a loaded machine: a passing step takes well under a second alone, but typing
        // took over 5 s when other suites kept the load at 25 on 2 cores. Tests of a timeout set their own.
        timeoutMs: 60_000,
        stepTimeoutMs: 20_000,
        record: false,
        // The sandbox listens on loopback: allowed the way ALLOWED_PRIVATE_HOSTS allows it in the stack.
        allowedHosts: [new URL(site.url).host],
        ...rest,
      });
    },
    close: async () => {
      await browser.close();
      await site.stop();
    },
  };
}

/** Sets a failure switch through the sandbox's admin call. */
export async function setBehaviour(siteUrl: string, rule: Record<string, unknown>): Promise<void> {
  const res = await fetch(`${siteUrl}/__sandbox/behaviour`, { method: 'POST', body: JSON.stringify(rule) });
  if (res.status !== 200) throw new Error(`behaviour switch refused: ${await res.text()}`);
}

export interface ProbedVideo {
  formatName: string;
  codec: string;
  durationS: number;
}

/** What ffprobe (a real decoder) makes of the bytes. */
export async function probeVideo(bytes: Buffer, ext = 'mp4'): Promise<ProbedVideo> {
  const dir = await mkdtemp(join(tmpdir(), 'patrol-probe-'));
  try {
    const file = join(dir, `video.${ext}`);
    await writeFile(file, bytes);
    const { stdout } = await promisify(execFile)('ffprobe', [
      ...['-v', 'error', '-print_format', 'json', '-show_entries', 'format=duration,format_name:stream=codec_name'],
      file,
    ]);
    const info = JSON.parse(stdout) as {
      format: { duration?: string; format_name: string };
      streams: { codec_name: string }[];
    };
    return {
      formatName: info.format.format_name,
      codec: info.streams[0]?.codec_name ?? '',
      durationS: Number(info.format.duration ?? 0),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
