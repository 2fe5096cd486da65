// What a check of one function point (process) found on a site, one schema per process.
// The fields are the "Log rows" of spec section 3: the engine stores `result` as the log row
// of the process and the raw log, so every field is always present, also when the check failed
// half-way (defaults from `emptyResult`, then filled as far as the driver got).
import { z } from 'zod';
import { AuthType, type EnumValue, type Process, type TestMode } from '../enums';
import { FailureKinds } from './systemConfig';

export type ProcessValue = EnumValue<typeof Process>;
export type TestModeValue = EnumValue<typeof TestMode>;

/** Any JSON value a site answered; stored as-is in the raw log. */
export const SiteReply = z.json().nullable();
export type SiteReply = z.infer<typeof SiteReply>;

// ---- 1 Login Account -------------------------------------------------------------------
export const LoginResult = z.object({
  login_success: z.boolean(),
  msg: z.string(),
});
export type LoginResult = z.infer<typeof LoginResult>;

// ---- 2 Place Bets ------------------------------------------------------------------------
/** One bet the check placed: one row of /check/results/bet-upload. */
export const PlacedBet = z.object({
  bet_id: z.string(),
  draw_id: z.string(),
  number: z.string(),
  big: z.number(),
  small: z.number(),
  /** Epoch ms at which the site accepted the bet. */
  placed_at: z.number().int(),
});
export type PlacedBet = z.infer<typeof PlacedBet>;

export const PlaceBetResult = z.object({
  DrawOpen: z.boolean(),
  bet_success: z.boolean(),
  /** ms from submitting the bet form to the site's answer. */
  response_timing: z.number().int().nonnegative(),
  result: SiteReply,
  /** HTTP status of the bet call (0 when it never answered). */
  status_code: z.number().int(),
  description: z.string(),
  bets: z.array(PlacedBet),
});
export type PlaceBetResult = z.infer<typeof PlaceBetResult>;

// ---- 3 Delete Bets, 6 Delete Bets Out ------------------------------------------------------
export const DeleteBetResult = z.object({
  has_record: z.boolean(),
  delete_success: z.boolean(),
  response_timing: z.number().int().nonnegative(),
  result: SiteReply,
  status_code: z.number().int(),
  description: z.string(),
});
export type DeleteBetResult = z.infer<typeof DeleteBetResult>;

// ---- 4 Check Fix Bets ----------------------------------------------------------------------
export const DrawSetting = z.object({
  draw_id: z.string(),
  name: z.string(),
  /** [active flag, label shown by the site] */
  status: z.tuple([z.boolean(), z.string()]),
});
export type DrawSetting = z.infer<typeof DrawSetting>;

export const FixBetResult = z.object({
  query_success: z.boolean(),
  records_cnt: z.number().int().nonnegative(),
  active_cnt: z.number().int().nonnegative(),
  inactive_cnt: z.number().int().nonnegative(),
  draw_settings: z.array(DrawSetting),
  description: z.string(),
});
export type FixBetResult = z.infer<typeof FixBetResult>;

// ---- 5 Out Setting3 ------------------------------------------------------------------------
export const OutSettingMsg = z.object({
  Number: z.string(),
  Type: z.string(),
  BigOutLimit: z.number(),
  BigToOut: z.number(),
  SmallOutLimit: z.number(),
  SmallToOut: z.number(),
});
export type OutSettingMsg = z.infer<typeof OutSettingMsg>;

export const OutSetting3Data = z.object({
  TransactDate: z.string(),
  time: z.string(),
  Msg: z.array(OutSettingMsg),
});
export type OutSetting3Data = z.infer<typeof OutSetting3Data>;

export const OutSetting3Result = z.object({
  process_success: z.boolean(),
  /** ms the site took to execute the out setting. */
  executed_timing: z.number().int().nonnegative(),
  result: z.object({ data: OutSetting3Data.nullable(), message: z.string() }),
  status_code: z.number().int(),
  description: z.string(),
});
export type OutSetting3Result = z.infer<typeof OutSetting3Result>;

// ---- 7 Out Setting3 Status -------------------------------------------------------------------
export const BalanceStatRow = z.object({
  rid: z.string(),
  number: z.string(),
  big: z.number(),
  small: z.number(),
  to_out: z.number(),
});
export type BalanceStatRow = z.infer<typeof BalanceStatRow>;

export const OutSetting3StatusResult = z.object({
  is_closed: z.boolean(),
  fixed_bets: z.number().int().nonnegative(),
  balance_left: z.number(),
  balance_stat: z.array(BalanceStatRow),
  /** [big total, small total, to-out total, balance left] */
  balance_total: z.tuple([z.number(), z.number(), z.number(), z.number()]),
  description: z.string(),
});
export type OutSetting3StatusResult = z.infer<typeof OutSetting3StatusResult>;

// ---- 8 Agent Setting ---------------------------------------------------------------------------
/** [enabled, [position flag, share-claim flag]] of one platform. */
export const PlatformStatus = z.tuple([z.boolean(), z.tuple([z.boolean(), z.boolean()])]);
export type PlatformStatus = z.infer<typeof PlatformStatus>;

export const AgentStat = z.object({
  agent: z.string(),
  D4: PlatformStatus,
  MG: PlatformStatus,
  TT: PlatformStatus,
});
export type AgentStat = z.infer<typeof AgentStat>;

export const AgentSettingResult = z.object({
  query_success: z.boolean(),
  agents_cnt: z.number().int().nonnegative(),
  /** Agents enabled on all three platforms. */
  normal_cnt: z.number().int().nonnegative(),
  stat: z.array(AgentStat),
  description: z.string(),
});
export type AgentSettingResult = z.infer<typeof AgentSettingResult>;

// ---- Per-process lookup ------------------------------------------------------------------------
export const processResultSchemas = {
  1: LoginResult,
  2: PlaceBetResult,
  3: DeleteBetResult,
  4: FixBetResult,
  5: OutSetting3Result,
  6: DeleteBetResult,
  7: OutSetting3StatusResult,
  8: AgentSettingResult,
} as const satisfies Record<ProcessValue, z.ZodType>;

/** The result type of one process: `ProcessResult<2>` is `PlaceBetResult`. */
export type ProcessResult<P extends ProcessValue = ProcessValue> = z.infer<(typeof processResultSchemas)[P]>;

/** The result of a process before the driver found anything: what a failed check reports by default. */
export function emptyResult<P extends ProcessValue>(process: P): ProcessResult<P> {
  const byProcess: { [K in ProcessValue]: () => ProcessResult<K> } = {
    1: () => ({ login_success: false, msg: '' }),
    2: () => ({
      DrawOpen: false,
      bet_success: false,
      response_timing: 0,
      result: null,
      status_code: 0,
      description: '',
      bets: [],
    }),
    3: () => emptyDelete(),
    4: () => ({
      query_success: false,
      records_cnt: 0,
      active_cnt: 0,
      inactive_cnt: 0,
      draw_settings: [],
      description: '',
    }),
    5: () => ({
      process_success: false,
      executed_timing: 0,
      result: { data: null, message: '' },
      status_code: 0,
      description: '',
    }),
    6: () => emptyDelete(),
    7: () => ({
      is_closed: false,
      fixed_bets: 0,
      balance_left: 0,
      balance_stat: [],
      balance_total: [0, 0, 0, 0],
      description: '',
    }),
    8: () => ({ query_success: false, agents_cnt: 0, normal_cnt: 0, stat: [], description: '' }),
  };
  return byProcess[process]() as ProcessResult<P>;
}

function emptyDelete(): DeleteBetResult {
  return {
    has_record: false,
    delete_success: false,
    response_timing: 0,
    result: null,
    status_code: 0,
    description: '',
  };
}

// ---- Session and outcome ---------------------------------------------------------------------
export const SessionCookie = z.object({
  name: z.string(),
  value: z.string(),
  domain: z.string(),
  path: z.string(),
  /** Epoch seconds as browsers keep them; -1 for a session cookie. */
  expires: z.number(),
  httpOnly: z.boolean(),
  secure: z.boolean(),
});
export type SessionCookie = z.infer<typeof SessionCookie>;

/**
 * A login kept for later checks of the same account (spec: auth type 1 Account, 2 Session).
 * `auth_type` says how the check that produced it signed in: 1 with user/password, 2 by reusing a stored session.
 */
export const StoredSession = z.object({
  auth_type: z.union([z.literal(AuthType.values.Account), z.literal(AuthType.values.Session)]),
  token: z.string(),
  cookies: z.array(SessionCookie),
  /** Epoch ms after which the session must not be reused. */
  expires_at: z.number().int(),
});
export type StoredSession = z.infer<typeof StoredSession>;

/** One navigation or call of a check, with its duration: the step timings of the raw log. */
export const CheckStep = z.object({
  name: z.string(),
  ms: z.number().int().nonnegative(),
  ok: z.boolean(),
  detail: z.string().optional(),
});
export type CheckStep = z.infer<typeof CheckStep>;

/** A request of the page that failed (no answer) or was answered 4xx/5xx, kept as failure evidence. */
export const FailedRequest = z.object({
  method: z.string(),
  /** Without credentials, and with the values of secret-looking query parameters replaced by ***. */
  url: z.string(),
  /** HTTP status; null when no answer came (connection refused, aborted, DNS). */
  status: z.number().int().nullable(),
  /** Chromium's reason when no answer came ('net::ERR_CONNECTION_REFUSED'). */
  error: z.string().optional(),
  /** ms from the request leaving the page to its answer or failure. */
  ms: z.number().int().nonnegative(),
});
export type FailedRequest = z.infer<typeof FailedRequest>;

export const CheckOutcome = z.object({
  success: z.boolean(),
  /** Human-readable verdict; on failure the reason ('Account is locked', 'Timed out after ...'). */
  msg: z.string(),
  process: z.number().int(),
  mode: z.number().int(),
  result: z.union([
    LoginResult,
    PlaceBetResult,
    DeleteBetResult,
    FixBetResult,
    OutSetting3Result,
    OutSetting3StatusResult,
    AgentSettingResult,
  ]),
  steps: z.array(CheckStep),
  consoleErrors: z.array(z.string()),
  /** Requests that failed or were answered 4xx/5xx (at most 50). */
  failedRequests: z.array(FailedRequest),
  /** Why a failed check failed, as far as a retry cares (shared/schemas/systemConfig FailureKinds); absent on success. */
  failureKind: z.enum(FailureKinds).optional(),
  /** The session to store for the account when the check signed in (absent when it never got in). */
  session: StoredSession.optional(),
  /** Wall time of the whole check in ms. */
  durationMs: z.number().int().nonnegative(),
});

/** The outcome of one check (one subtask). `result` is typed by the process. */
export type CheckOutcome<P extends ProcessValue = ProcessValue> = Omit<
  z.infer<typeof CheckOutcome>,
  'result' | 'process' | 'mode'
> & {
  process: P;
  mode: TestModeValue;
  result: ProcessResult<P>;
};
