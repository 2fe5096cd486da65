import { DEFAULT_SYSTEM_CONFIG } from '@shared/schemas/systemConfig';
import { displayTimeZone } from '@/app/format';
import { useSystemConfig } from '@/features/super/systemConfigApi';

/**
 * The zone rule times are in (system config time_zone) and the checkers' concurrency the calendar
 * weighs slots against (system config checker.concurrency). Until the config arrives: the zone the
 * shell last saw, and the config's default (4, the checker's registry default too).
 */
export function useRuleZone(): { zone: string; concurrency: number; loaded: boolean } {
  const { data } = useSystemConfig();
  return {
    zone: data?.time_zone ?? displayTimeZone() ?? DEFAULT_SYSTEM_CONFIG.time_zone,
    concurrency: data?.checker.concurrency ?? DEFAULT_SYSTEM_CONFIG.checker.concurrency,
    loaded: data !== undefined,
  };
}
