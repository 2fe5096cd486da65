import { DEFAULT_SYSTEM_CONFIG } from '@shared/schemas/systemConfig';
import { displayTimeZone } from '@/app/format';
import { useSystemConfig } from '@/features/super/systemConfigApi';

/**
 * The zone rule times are in: the system config's time_zone; until it arrives, the zone the shell
 * last saw, else the config's default.
 */
export function useRuleZone(): { zone: string } {
  const { data } = useSystemConfig();
  return { zone: data?.time_zone ?? displayTimeZone() ?? DEFAULT_SYSTEM_CONFIG.time_zone };
}
