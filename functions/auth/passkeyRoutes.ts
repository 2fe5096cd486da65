import {
  NewPasskeyBody,
  PasskeyRegistrationOptionsBody,
  PasskeySignInBody,
  PasskeySignInOptionsBody,
  RenamePasskeyBody,
} from '../../shared/schemas/passkeys.js';
import { Router } from '../lib/http/router.js';
import { clientIp } from './clientIp.js';
import { sessionPassword } from './currentPassword.js';
import {
  PASSKEY_LIMITS,
  passkeySummaries,
  registerPasskey,
  registrationOptions,
  removePasskey,
  renamePasskey,
  signInOptions,
  signInWithPasskey,
} from './passkeys.js';

/**
 * Passkeys (docs/sign-in.md): a user's own (every role manages its own, as it sets its own
 * password), and the sign-in with one. Options only hand out a challenge: not audited; every
 * registration, rename, removal and sign-in is.
 */
export const passkeyRouter = new Router()
  .get('/me/passkeys', ({ user }) => passkeySummaries(user.id))
  .post(
    '/me/passkeys/options',
    async (req) => {
      await sessionPassword(req.user, req.body.password, clientIp(req), 'passkey_register_start');
      return registrationOptions(req.user);
    },
    {
      role: 'viewer',
      body: PasskeyRegistrationOptionsBody,
      audit: false,
      rateLimit: { rule: PASSKEY_LIMITS.registerPerUser, what: 'passkey registrations' },
    },
  )
  .post('/me/passkeys', (req) => registerPasskey(req.user, req.body, clientIp(req)), {
    role: 'viewer',
    body: NewPasskeyBody,
    audit: { action: 'passkey.register', target: 'passkey' },
  })
  .put('/me/passkeys/*id', (req) => renamePasskey(req.user, req.params.id, req.body.name), {
    role: 'viewer',
    body: RenamePasskeyBody,
    audit: { action: 'passkey.rename', target: 'passkey' },
  })
  .delete('/me/passkeys/*id', (req) => removePasskey(req.user, req.params.id, clientIp(req)), {
    role: 'viewer',
    audit: { action: 'passkey.remove', target: 'passkey' },
  })
  .post('/login/passkey/options', (req) => signInOptions(req.body, clientIp(req)), {
    access: 'public',
    body: PasskeySignInOptionsBody,
    audit: false,
  })
  .post('/login/passkey', (req) => signInWithPasskey(req.body, { ip: clientIp(req), identified: req.setActor }), {
    access: 'public',
    body: PasskeySignInBody,
    audit: { action: 'passkey.sign_in', target: 'login' },
  });
