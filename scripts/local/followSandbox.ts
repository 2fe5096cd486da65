import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * The sandbox site listens on a new free port at every start, so sites that pointed at the
 * previous one (the demo sites, or any an operator made against it) would check a dead
 * address after a restart. This moves them to the new address and remembers it in
 * DATA_DIR/sandbox-url.txt. Returns how many sites moved. Never throws: the stack runs
 * without it, the sites only keep their old address.
 */
export async function followSandbox(dataDir: string, sandboxUrl: string): Promise<number> {
  const file = join(dataDir, 'sandbox-url.txt');
  const previous = (await readFile(file, 'utf8').catch(() => '')).trim();
  let moved = 0;
  try {
    if (previous && previous !== sandboxUrl) {
      // Imported only now: feature modules read the environment the stack has just set.
      const { allSites, updateSite } = await import('../../functions/sites/service.js');
      for (const site of await allSites()) {
        if (site.url !== previous && !site.url.startsWith(`${previous}/`)) continue;
        await updateSite(site.id, { url: sandboxUrl + site.url.slice(previous.length) });
        moved++;
      }
    }
    await writeFile(file, `${sandboxUrl}\n`);
  } catch (error) {
    console.warn('[local] could not move sites to the new sandbox address', error);
  }
  return moved;
}
