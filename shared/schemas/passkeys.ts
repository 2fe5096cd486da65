import { z } from 'zod';
import { ValidatorMessages } from '../validators.js';
import { CurrentPasswordBody } from './auth.js';
import { Bounds } from './common.js';

// Passkey bodies (docs/sign-in.md, "Passkeys"). The credential answers are SimpleWebAuthn's JSON as
// `startRegistration()` / `startAuthentication()` return them; checked here only for shape and size
// (every field a bounded base64url string), the rest is the WebAuthn verification's job.

/** Longest passkey name. */
export const PASSKEY_NAME_MAX = 64;
/** Most passkeys one user may register: a user's passkeys are read whole at every sign-in with them. */
export const PASSKEYS_PER_USER = 20;

export const PasskeyMessages = {
  name: 'Please name the passkey',
  response: 'The browser sent no passkey answer',
  ticket: 'Sign in again',
} as const;

/**
 * base64url, as WebAuthn's JSON encodes bytes. Post-quantum keys are large: an ML-DSA-44 signature is
 * 2,420 bytes (3,227 characters), its public key 1,312, and SimpleWebAuthn 14 offers ML-DSA first where
 * the runtime has it (Chromium's own authenticator then signs with it); an attestation with
 * certificates runs to a few KB.
 */
const b64url = (max: number) =>
  z
    .string()
    .max(max)
    .regex(/^[A-Za-z0-9_-]*$/, 'Not base64url');
const CredentialId = b64url(1366);
const Transports = z.array(z.string().max(32)).max(10).optional();
const ExtensionResults = z.record(z.string().max(64), z.unknown()).optional().default({});
const Attachment = z.enum(['platform', 'cross-platform']).optional();

export const PasskeyRegistrationResponse = z.object(
  {
    id: CredentialId,
    rawId: CredentialId,
    type: z.literal('public-key'),
    authenticatorAttachment: Attachment,
    clientExtensionResults: ExtensionResults,
    response: z.object({
      clientDataJSON: b64url(4096),
      attestationObject: b64url(24_576),
      authenticatorData: b64url(8192).optional(),
      transports: Transports,
      publicKeyAlgorithm: z.number().int().optional(),
      publicKey: b64url(8192).optional(),
    }),
  },
  { error: PasskeyMessages.response },
);

export const PasskeyAuthenticationResponse = z.object(
  {
    id: CredentialId,
    rawId: CredentialId,
    type: z.literal('public-key'),
    authenticatorAttachment: Attachment,
    clientExtensionResults: ExtensionResults,
    response: z.object({
      clientDataJSON: b64url(4096),
      authenticatorData: b64url(4096),
      signature: b64url(8192),
      userHandle: b64url(512).optional(),
    }),
  },
  { error: PasskeyMessages.response },
);

const PasskeyName = z
  .string({ error: PasskeyMessages.name })
  .trim()
  .min(1, PasskeyMessages.name)
  .max(PASSKEY_NAME_MAX, ValidatorMessages.maxLength(PASSKEY_NAME_MAX));

/** A sign-in ticket from a `POST /login` answer (its second step). */
const Ticket = z.string().trim().min(1, PasskeyMessages.ticket).max(Bounds.token, PasskeyMessages.ticket);

/** `POST /me/passkeys/options`: the current password, as a new factor is its owner's call (docs/sign-in.md). */
export const PasskeyRegistrationOptionsBody = CurrentPasswordBody;
export type PasskeyRegistrationOptionsBody = z.infer<typeof PasskeyRegistrationOptionsBody>;

/** `POST /me/passkeys`: the registration answer and the name the user gave it. */
export const NewPasskeyBody = z.object({ name: PasskeyName, response: PasskeyRegistrationResponse });
export type NewPasskeyBody = z.infer<typeof NewPasskeyBody>;

/** `PUT /me/passkeys/{id}`. */
export const RenamePasskeyBody = z.object({ name: PasskeyName });
export type RenamePasskeyBody = z.infer<typeof RenamePasskeyBody>;

/** `POST /login/passkey/options`: with the ticket of a password step, only that user's passkeys are asked for. */
export const PasskeySignInOptionsBody = z.object({ ticket: Ticket.optional() });
export type PasskeySignInOptionsBody = z.infer<typeof PasskeySignInOptionsBody>;

/** `POST /login/passkey`: the authentication answer, and the ticket when it is the second step. */
export const PasskeySignInBody = z.object({ response: PasskeyAuthenticationResponse, ticket: Ticket.optional() });
export type PasskeySignInBody = z.infer<typeof PasskeySignInBody>;
