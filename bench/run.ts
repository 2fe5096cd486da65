// Runs each bench/*.bench.ts in turn (or the ones named: `npm run bench -- listEngine`), each in its
// own tsx process so one bench's engines and memory never skew the next one's figures.

import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const benchDir = dirname(fileURLToPath(import.meta.url));
const tsx = resolve(benchDir, '../node_modules/.bin/tsx');

const named = process.argv.slice(2).map((n) => basename(n).replace(/(\.bench)?\.ts$/, '') + '.bench.ts');
const files = named.length
  ? named
  : readdirSync(benchDir)
      .filter((f) => f.endsWith('.bench.ts'))
      .sort();

let failed = 0;
for (const file of files) {
  console.log(`\n== ${file}`);
  const started = Date.now();
  const code = await new Promise<number>((done) => {
    spawn(tsx, [join(benchDir, file)], { stdio: 'inherit' }).once('exit', (c) => done(c ?? 1));
  });
  console.log(
    `== ${file}: ${code === 0 ? 'done' : `failed (exit ${code})`} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  if (code !== 0) failed++;
}
process.exit(failed ? 1 : 0);
