import type { ListQuery } from '../../shared/listQuery.js';
import { resyncRuleSchedules } from '../autoCheck/service.js';
import {
  DEFAULT_SYSTEM_CONFIG,
  diffConfig,
  SystemConfig,
  type SystemConfigState,
  type SystemConfigVersion,
} from '../../shared/schemas/systemConfig.js';
import type { ListOutcome } from '../lib/db/entity.js';
import { config } from '../lib/config.js';
import { ValidationError } from '../lib/errors.js';
import type { AuthUser } from '../lib/http/router.js';
import { assertOutboundUrl, isAllowedPrivateHost } from '../lib/net/outboundUrlGuard.js';
import { ConfigVersionNotFoundError } from './errors.js';
import { getSystemConfig, invalidateSystemConfig } from './getSystemConfig.js';
import { systemConfigStore } from './store.js';

/** The document in force with its version; version 0 and the defaults before the first save. */
export async function readSystemConfigState(): Promise<SystemConfigState> {
  const head = await systemConfigStore().head();
  if (!head) return { version: 0, document: DEFAULT_SYSTEM_CONFIG, updated_at: null, updated_by: null };
  const parsed = SystemConfig.safeParse(head.document);
  return {
    version: head.version,
    document: parsed.success ? parsed.data : head.document,
    updated_at: head.updated_at,
    updated_by: { nickname: head.updated_by.nickname },
  };
}

/** What every signed-in user reads (the shell's system config): nothing in it is secret. */
export const readSystemConfig = (): Promise<SystemConfig> => getSystemConfig();

/**
 * Saves a validated document as a new version recording who, when and what changed. A save that
 * changes nothing makes no version.
 */
export async function saveSystemConfig(
  actor: AuthUser,
  document: SystemConfig,
  restoredFrom?: number,
): Promise<SystemConfigState> {
  const current = await readSystemConfigState();
  const changes = diffConfig(current.document, document);
  if (changes.length === 0) return current;
  // The SSO issuer is called by the server (discovery, tokens): it passes the private-address guard.
  if (document.sso.issuer && document.sso.issuer !== current.document.sso?.issuer) {
    const issuer = new URL(document.sso.issuer);
    // Plain http only for a host the stage allows as private (the local sandbox provider).
    if (
      issuer.protocol !== 'https:' &&
      !isAllowedPrivateHost(issuer.hostname, issuer.port || '80', config.allowedPrivateHosts)
    )
      throw new ValidationError({ 'sso.issuer': 'The issuer must be an https URL' });
    await assertOutboundUrl(issuer, { field: 'sso.issuer', allowedHosts: config.allowedPrivateHosts });
  }
  await systemConfigStore().save(
    { document, changes, by: { id: actor.id, nickname: actor.nickname }, restored_from: restoredFrom },
    current.version,
  );
  invalidateSystemConfig();
  // Rule times are wall-clock times in the configured zone: every schedule follows a new zone.
  if (document.time_zone !== current.document.time_zone) await resyncRuleSchedules(document.time_zone);
  return readSystemConfigState();
}

/** Brings an earlier version back, as a new version (the history only grows). */
export async function restoreSystemConfigVersion(actor: AuthUser, id: number): Promise<SystemConfigState> {
  const version = await systemConfigStore().version(id);
  if (!version) throw new ConfigVersionNotFoundError(id);
  // Checked against today's rules: a setting added since then takes its default.
  const parsed = SystemConfig.safeParse(version.document);
  if (!parsed.success) {
    const extra: Record<string, string> = {};
    for (const issue of parsed.error.issues) extra[issue.path.join('.') || 'document'] ??= issue.message;
    throw new ValidationError(extra);
  }
  return saveSystemConfig(actor, parsed.data, id);
}

export async function getSystemConfigVersion(id: number): Promise<SystemConfigVersion> {
  const version = await systemConfigStore().version(id);
  if (!version) throw new ConfigVersionNotFoundError(id);
  return version;
}

export const listSystemConfigVersions = (query: ListQuery): Promise<ListOutcome<SystemConfigVersion>> =>
  systemConfigStore().listVersions(query);
