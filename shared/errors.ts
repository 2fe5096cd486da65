// The one list of error codes on the wire. Every code appears here once, with the HTTP status it
// goes with and the text the web shows when a failure carries no message of its own. The
// functions' error classes and the web's text-by-code table both read it, so a code cannot drift
// between them or be handed out twice (OperationNotFound once shared 4044 with RouteNotFound).
// Existing codes keep their numbers: clients may have stored or matched on them.

export interface ErrorDef {
  code: number;
  status: number;
  text: string;
}

export const ERRORS = {
  BadRequest: { code: 4000, status: 400, text: 'Bad Request' },
  Validation: { code: 4001, status: 400, text: 'Invalid input.' },
  MalformedJson: { code: 4002, status: 400, text: 'Malformed request.' },
  // Issue 45: a bank alert rule's condition does not parse; `extra` holds { column (1-based), expected, found }.
  AlertRuleExpressionInvalid: { code: 4003, status: 400, text: 'The condition is not valid.' },
  // Issue 46: POST /reports for a period that is not a whole past day, week (from a Monday) or month (from the 1st).
  ReportPeriodInvalid: { code: 4004, status: 400, text: 'Choose a period that has ended.' },
  Unauthorized: { code: 4010, status: 401, text: 'Please login first.' },
  BadCredentials: { code: 4011, status: 400, text: 'Wrong username or password.' },
  CaptchaRequired: { code: 4012, status: 400, text: 'Please input the captcha.' },
  CaptchaWrong: { code: 4013, status: 400, text: 'Wrong captcha.' },
  // The second step of sign-in and TOTP enrolment (docs/sign-in.md).
  SecondFactorWrong: { code: 4014, status: 400, text: 'Wrong code.' },
  SignInTicketInvalid: { code: 4015, status: 400, text: 'This sign-in has expired, please sign in again.' },
  TotpNotStarted: { code: 4016, status: 400, text: 'Start setting up the authenticator app first.' },
  TotpAlreadyEnrolled: { code: 4017, status: 400, text: 'An authenticator app is set up already.' },
  SecondFactorCodeUsed: { code: 4018, status: 400, text: 'This code was used already, wait for the next one.' },
  // Single sign-on with OpenID Connect (docs/sign-in.md): the login page shows these after the provider.
  SsoNotConfigured: { code: 4020, status: 400, text: 'Single sign-on is not set up.' },
  SsoFailed: { code: 4021, status: 400, text: 'Single sign-on failed, please try again.' },
  SsoUnknownUser: {
    code: 4022,
    status: 400,
    text: 'Your account at the identity provider is not a Patrol user. Ask a super user to add you.',
  },
  SsoCodeInvalid: { code: 4023, status: 400, text: 'This single sign-on has expired, please sign in again.' },
  SsoProviderUnavailable: {
    code: 4024,
    status: 400,
    text: 'The identity provider did not answer, please try again later.',
  },
  Forbidden: { code: 4030, status: 403, text: 'Permission denied.' },
  // A request that did not come through the stage's CloudFront (the API's own address, called directly).
  NotThroughEdge: { code: 4031, status: 403, text: "Use the console's address." },
  // A viewer called a write or a secret's reveal.
  ReadOnlyRole: { code: 4032, status: 403, text: 'Your role can read only.' },
  // Passkeys need a domain name: WebAuthn refuses an IP address as the relying party (docs/sign-in.md).
  PasskeysUnavailable: { code: 4033, status: 403, text: "Passkeys work only at the console's domain name." },
  // API tokens (issue 46): a token's scope does not reach the route; a route that takes only a token.
  TokenScopeRefused: { code: 4036, status: 403, text: "This API token's scope does not allow this call." },
  TokenRequired: { code: 4037, status: 403, text: 'This route takes an API token of its scope, not a session.' },
  NotFound: { code: 4040, status: 404, text: 'Not found.' },
  SiteNotFound: { code: 4041, status: 404, text: 'Site not found.' },
  SiteAccountNotFound: { code: 4042, status: 404, text: 'Site account not found.' },
  NotificationNotFound: { code: 4043, status: 404, text: 'Notification not found.' },
  RouteNotFound: { code: 4044, status: 404, text: 'Not found.' },
  TaskNotFound: { code: 4045, status: 404, text: 'Task not found.' },
  RawLogNotFound: { code: 4046, status: 404, text: 'Log not found.' },
  SubtaskNotFound: { code: 4047, status: 404, text: 'Subtask not found.' },
  OperationNotFound: { code: 4048, status: 404, text: 'Operation not found.' },
  AutoCheckRuleNotFound: { code: 4049, status: 404, text: 'Rule not found.' },
  // The 404 codes' ten are taken: later ones have five digits, still led by their status.
  BankAccountNotFound: { code: 40410, status: 404, text: 'Bank account not found.' },
  MaintenanceNotFound: { code: 40411, status: 404, text: 'Maintenance window not found.' },
  IncidentNotFound: { code: 40412, status: 404, text: 'Incident not found.' },
  PasskeyNotFound: { code: 40417, status: 404, text: 'Passkey not found.' },
  ApiTokenNotFound: { code: 40420, status: 404, text: 'API token not found.' },
  AlertRuleNotFound: { code: 40421, status: 404, text: 'Alert rule not found.' },
  ReportNotFound: { code: 40422, status: 404, text: 'Report not found.' },
  // An unknown, removed or another user's credential, or an answer that does not verify: one text for all.
  PasskeyNotRecognised: { code: 4019, status: 400, text: 'This passkey is not recognised.' },
  PasskeyChallengeExpired: { code: 4026, status: 400, text: 'The passkey request expired, please try again.' },
  FactorNotFound: { code: 40413, status: 404, text: 'No authenticator app is set up.' },
  MethodNotAllowed: { code: 4050, status: 405, text: 'Method not allowed.' },
  Conflict: { code: 4090, status: 409, text: 'Already exists.' },
  SiteExists: { code: 4091, status: 409, text: 'A site with this name already exists.' },
  BankAccountExists: { code: 4093, status: 409, text: 'This bank account already exists.' },
  BankSecretUnreadable: { code: 4094, status: 409, text: 'The stored secret cannot be read; enter it again.' },
  PayloadTooLarge: { code: 4130, status: 413, text: 'Request too large.' },
  UnsupportedMediaType: { code: 4150, status: 415, text: 'Unsupported content type.' },
  TooManyRequests: { code: 4290, status: 429, text: 'Too many requests, try later.' },
  // Issue 43: every rule slot reads the enabled maintenance windows, so only so many may be enabled.
  MaintenanceWindowLimit: { code: 4025, status: 400, text: 'Too many maintenance windows are enabled.' },
  BankUnavailable: { code: 5020, status: 502, text: 'The bank did not answer, try later.' },
  Internal: { code: 5000, status: 500, text: 'Server error, try later.' },
  // A rule's schedules could not be written (the cloud scheduler); the rule was left unchanged.
  ScheduleUnavailable: { code: 5030, status: 503, text: 'The schedule could not be saved, try again.' },
  TelegramNotConfigured: {
    code: 4006,
    status: 400,
    text: 'Telegram is not set up: set the bot token and the chat first.',
  },
  // Telegram refused or did not answer; the message says what it answered.
  TelegramSendFailed: { code: 5021, status: 502, text: 'Send TG Notification Failed.' },
} as const satisfies Record<string, ErrorDef>;

export type ErrorName = keyof typeof ERRORS;

/** Name -> code, e.g. `ErrorCode.RouteNotFound === 4044`. */
export const ErrorCode = Object.fromEntries(Object.entries(ERRORS).map(([name, def]) => [name, def.code])) as {
  readonly [K in ErrorName]: (typeof ERRORS)[K]['code'];
};
export type ErrorCode = (typeof ErrorCode)[ErrorName];

/** The registry entry of a code, for the web's texts; undefined for a code nobody defined. */
export function errorByCode(code: number): ErrorDef | undefined {
  return BY_CODE.get(code);
}

const BY_CODE = new Map<number, ErrorDef>(Object.values(ERRORS).map((def) => [def.code, def]));
