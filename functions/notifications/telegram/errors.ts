import { ERRORS, ErrorCode } from '../../../shared/errors.js';
import { PatrolError } from '../../lib/errors.js';

/** A send was asked for but there is no token or no chat to send to. */
export class TelegramNotConfiguredError extends PatrolError {
  override name = 'TelegramNotConfiguredError';
  override status: number = ERRORS.TelegramNotConfigured.status;
  override code: number = ErrorCode.TelegramNotConfigured;
}

/**
 * Telegram refused the message or did not answer. The message is the reason an operator reads
 * after 'Send TG Notification Failed.' (Telegram's own answer, never the token or the URL).
 */
export class TelegramSendFailedError extends PatrolError {
  override name = 'TelegramSendFailedError';
  override status: number = ERRORS.TelegramSendFailed.status;
  override code: number = ErrorCode.TelegramSendFailed;
}
