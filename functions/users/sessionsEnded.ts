import { logger } from '../lib/logger.js';

// What else ends when a user's sessions end (issue 43 item 3). The users feature bumps the token
// version; features that hold something made under a session (the Telegram link) register here
// from an entry point (functions/api.ts), so users never imports them.

export type SessionsEndedListener = (userId: number) => Promise<void>;

const listeners: SessionsEndedListener[] = [];

/** Registers what runs after a user's sessions end; registering the same function again does nothing. */
export function onSessionsEnded(listener: SessionsEndedListener): void {
  if (!listeners.includes(listener)) listeners.push(listener);
}

/**
 * Runs every listener for a user whose sessions just ended. A listener's failure is logged, not
 * thrown: the version bump already happened, and whatever a listener ends checks the version too.
 */
export async function sessionsEnded(userId: number): Promise<void> {
  await Promise.all(
    listeners.map((listener) =>
      listener(userId).catch((error: unknown) =>
        logger.warn('a listener of ended sessions failed', { user_id: userId, error: error as Error }),
      ),
    ),
  );
}
