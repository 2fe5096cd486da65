// The entry of `npm run patrol` (main.ts holds the command, its tests call it directly).
import { readFile } from 'node:fs/promises';
import { main } from './main.js';

process.exitCode = await main(process.argv.slice(2), {
  env: process.env,
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
  readFile: (path) => readFile(path, 'utf8'),
});
