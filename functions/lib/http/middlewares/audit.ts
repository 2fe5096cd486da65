import { type AuditEntry, AuditOutcome } from '../../../../shared/schemas/audit.js';
import { PatrolError } from '../../errors.js';
import { logger } from '../../logger.js';
import { RawReply, type Route } from '../router.js';
import { API_PREFIX, type ApiMiddleware, type ApiRequest, apiState } from './apiState.js';
import { failureStatus } from './envelope.js';

export type AuditInput = Omit<AuditEntry, 'id' | 'created_at'>;

/** Where audit rows go and how the caller's address is read; the API wires the audit feature in. */
export interface AuditRecorder {
  record(entry: AuditInput): Promise<unknown>;
  /** Turns request + reply into what a row may keep (secrets dropped). */
  snapshot(value: unknown): string | undefined;
  clientIp(req: { sourceIp: string; headers: Record<string, string> }): string;
}

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Writes are audited unless a route opts out; reads only when a route opts in (a secret's reveal). */
function audited(route: Route, method: string): boolean {
  if (route.audit === false) return false;
  if (typeof route.access === 'object') return false; // machine callers (webhooks) are not users
  return route.audit !== undefined || !READS.has(method);
}

/** `/api/v1/sites/:id/accounts` -> type 'sites.accounts' and the `:id` value; the route may name its own. */
function targetOf(route: Route, params: Record<string, string | number>, data: unknown): { type: string; id?: number } {
  const segments = route.pattern.slice(route.pattern.startsWith(API_PREFIX) ? API_PREFIX.length : 0).split('/');
  const lastParam = segments.findLastIndex((s) => s.startsWith(':'));
  const literals = (lastParam >= 0 ? segments.slice(0, lastParam) : segments).filter(
    (s) => s && !s.startsWith(':') && !s.startsWith('*') && s !== 'super',
  );
  const type = (route.audit || undefined)?.target || literals.join('.') || '/';
  if (lastParam >= 0) return { type, id: Number(params[segments[lastParam].slice(1)]) };
  // A create names no id in its path: the new record's id is in the reply.
  const created = (data as { id?: unknown } | undefined)?.id;
  return typeof created === 'number' ? { type, id: created } : { type };
}

/** `token <name> (by <creator>)`, cut to the row's 64 characters. */
export const tokenActorName = (tokenName: string, creator: string): string =>
  `token ${tokenName} (by ${creator})`.slice(0, 64);

/**
 * Who called: the signed-in user, or an API token under its name and creator; for a public write (a login), the user its handler found it to be
 * (a passkey's sign-in), else the username it names.
 */
function actorOf(request: ApiRequest): { actor_id: number; actor_name: string } | undefined {
  const state = apiState(request);
  // A token's call: its creator's id, and a name that says which token and whose (issue 46).
  if (state.user?.token)
    return { actor_id: state.user.id, actor_name: tokenActorName(state.user.token.name, state.user.username) };
  if (state.user) return { actor_id: state.user.id, actor_name: state.user.username };
  if (state.actor && state.route?.access === 'public')
    return { actor_id: state.actor.id, actor_name: state.actor.username.slice(0, 64) };
  const username = (state.body as { username?: unknown } | undefined)?.username;
  if (state.route?.access === 'public') {
    return { actor_id: 0, actor_name: typeof username === 'string' ? username.slice(0, 64) : '' };
  }
  return undefined;
}

/**
 * The one place the audit trail is written: after a user's write (or an opted-in read) has
 * ended, success or refusal, one row with who, what, which record, what was asked and what it
 * became (secrets dropped), the client address, the request id, the status and the time.
 * It runs before the envelope puts the reply on the wire, so a reply whose row could not be
 * written is not handed out (a reveal never leaves without its trace). Calls refused before the
 * caller is known (401/403/404) leave no row: they are in the security log.
 */
export function audit(recorder?: AuditRecorder): ApiMiddleware {
  const write = async (request: ApiRequest, status: number, data: unknown, reason?: string) => {
    const state = apiState(request);
    const route = state.route;
    const method = (request.event.requestContext?.http?.method ?? 'GET').toUpperCase();
    if (!recorder || !route || !audited(route, method)) return;
    const actor = actorOf(request);
    if (!actor) return;
    const target = targetOf(route, state.params, data);
    const patternBelowPrefix = route.pattern.startsWith(API_PREFIX)
      ? route.pattern.slice(API_PREFIX.length)
      : route.pattern;
    const input = recorder.snapshot(state.body);
    const after = status < 400 ? recorder.snapshot(data) : undefined;
    await recorder.record({
      ...actor,
      action: (route.audit || undefined)?.action || `${method} ${patternBelowPrefix}`,
      target: target.id !== undefined ? `${target.type}#${target.id}` : target.type,
      target_type: target.type,
      ...(target.id !== undefined ? { target_id: target.id } : {}),
      ...(input !== undefined ? { input } : {}),
      ...(after !== undefined ? { after } : {}),
      client_ip: recorder.clientIp({
        sourceIp: request.event.requestContext?.http?.sourceIp ?? '',
        headers: (request.event.headers ?? {}) as Record<string, string>,
      }),
      request_id: state.requestId,
      status,
      outcome: status < 400 ? AuditOutcome.Allowed : AuditOutcome.Refused,
      ...(reason ? { reason: reason as AuditInput['reason'] } : {}),
      at: Date.now(),
    });
  };
  const recorded = new WeakSet<object>();
  return {
    after: async (request) => {
      const data: unknown = request.response;
      // Marked first: if the row cannot be written the call fails, and onError must not try again.
      recorded.add(request);
      await write(request, data instanceof RawReply ? data.status : 200, data instanceof RawReply ? undefined : data);
    },
    onError: async (request) => {
      if (recorded.has(request)) return;
      recorded.add(request);
      // The call has failed already; a failing audit write must not replace its error.
      const reason = request.error instanceof PatrolError ? request.error.auditReason : undefined;
      await write(request, failureStatus(request.error), undefined, reason).catch((error) => {
        logger.error('audit row not written', { error: error as Error });
      });
    },
  };
}
