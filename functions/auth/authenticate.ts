import { UnauthorizedError } from '../lib/errors.js';
import type { AuthUser } from '../lib/http/router.js';

// Placeholder until the auth module lands: every token is refused.
export async function authenticate(_token: string): Promise<AuthUser> {
  throw new UnauthorizedError('Please log in first');
}
