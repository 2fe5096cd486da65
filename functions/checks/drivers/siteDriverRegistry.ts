// Which driver checks which site. The sandbox driver answers for every site unless a more specific
// driver claims it, so a real site's driver is one `registerSiteDriver` call in its own module.
import type { SiteDriver, SiteRef } from './SiteDriver';
import { sandbox4dDriver } from './Sandbox4dDriver';

export interface SiteDriverEntry {
  driver: SiteDriver;
  /** True when the driver knows this site (by host, name, id...). */
  matches(site: SiteRef): boolean;
}

const entries: SiteDriverEntry[] = [];

/** Later registrations win over earlier ones, so an override can be registered in tests. */
export function registerSiteDriver(entry: SiteDriverEntry): () => void {
  entries.unshift(entry);
  return () => {
    const i = entries.indexOf(entry);
    if (i >= 0) entries.splice(i, 1);
  };
}

/** The driver for a site: the first registered match, else the sandbox 4D driver. */
export function driverForSite(site: SiteRef): SiteDriver {
  return entries.find((e) => e.matches(site))?.driver ?? sandbox4dDriver;
}

/** Matcher for drivers that own one host, e.g. `matchesHost('agent.example.com')`. */
export function matchesHost(host: string): (site: SiteRef) => boolean {
  return (site) => {
    try {
      return new URL(site.url).host.toLowerCase() === host.toLowerCase();
    } catch {
      return false;
    }
  };
}
