// A software authenticator for API tests of passkeys: an ES256 key pair that answers WebAuthn
// ceremonies as a browser and a platform authenticator would (attestation 'none', a signature
// counter, a user handle for discoverable sign-in), built from the options the API hands out.
// The end-to-end tests use Chromium's own virtual authenticator instead.
import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';
import { isoBase64URL, isoCBOR } from '@simplewebauthn/server/helpers';

const b64 = (bytes: Uint8Array) => isoBase64URL.fromBuffer(new Uint8Array(bytes));
const sha256 = (data: Uint8Array | string) => new Uint8Array(createHash('sha256').update(data).digest());
const u32 = (n: number) => {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setUint32(0, n);
  return b;
};
const concat = (...parts: Uint8Array[]) => new Uint8Array(Buffer.concat(parts));

/** Flags of authenticator data: user present, user verified, attested credential data included. */
const UP = 0x01;
const UV = 0x04;
const AT = 0x40;

export interface SoftPasskeyOptions {
  /** Whether the user is verified (PIN, biometrics): a sign-in with the passkey alone demands it. */
  userVerified?: boolean;
  /** Keep the signature counter at 0, as many platform authenticators do. */
  noCounter?: boolean;
}

/** One credential of one user on one authenticator. */
export class SoftPasskey {
  readonly id = b64(randomBytes(16));
  private readonly privateKey: KeyObject;
  private readonly publicJwk: { x: string; y: string };
  private counter = 0;
  userHandle?: string;

  constructor(
    readonly origin: string,
    readonly rpId: string,
    private readonly options: SoftPasskeyOptions = {},
  ) {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.privateKey = privateKey;
    const jwk = publicKey.export({ format: 'jwk' });
    this.publicJwk = { x: String(jwk.x), y: String(jwk.y) };
  }

  private flags(extra = 0) {
    return UP | (this.options.userVerified === false ? 0 : UV) | extra;
  }

  private nextCounter() {
    if (!this.options.noCounter) this.counter += 1;
    return this.counter;
  }

  private clientData(type: 'webauthn.create' | 'webauthn.get', challenge: string) {
    return new TextEncoder().encode(JSON.stringify({ type, challenge, origin: this.origin, crossOrigin: false }));
  }

  /** Sets the counter back `by` uses: what a copy of the key made before those uses would answer. */
  rewindCounter(by: number) {
    this.counter = Math.max(0, this.counter - by);
  }

  /** The answer to `POST /me/passkeys/options`, as `startRegistration()` returns it. */
  register(options: { challenge: string; user: { id: string } }) {
    this.userHandle = options.user.id;
    const cose = new Map<number, number | Uint8Array>([
      [1, 2], // kty: EC2
      [3, -7], // alg: ES256
      [-1, 1], // crv: P-256
      [-2, isoBase64URL.toBuffer(this.publicJwk.x)],
      [-3, isoBase64URL.toBuffer(this.publicJwk.y)],
    ]);
    const credentialId = isoBase64URL.toBuffer(this.id);
    const idLength = new Uint8Array([credentialId.length >> 8, credentialId.length & 255]);
    const authData = concat(
      sha256(this.rpId),
      new Uint8Array([this.flags(AT)]),
      u32(this.nextCounter()),
      new Uint8Array(16), // AAGUID: none
      idLength,
      credentialId,
      isoCBOR.encode(cose),
    );
    const attestationObject = isoCBOR.encode(
      new Map<string, unknown>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', authData],
      ]) as never,
    );
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
      response: {
        clientDataJSON: b64(this.clientData('webauthn.create', options.challenge)),
        attestationObject: b64(attestationObject),
        transports: ['internal'],
      },
    };
  }

  /** The answer to `POST /login/passkey/options`, as `startAuthentication()` returns it. */
  authenticate(options: { challenge: string }) {
    const authData = concat(sha256(this.rpId), new Uint8Array([this.flags()]), u32(this.nextCounter()));
    const clientDataJSON = this.clientData('webauthn.get', options.challenge);
    const signature = sign('sha256', concat(authData, sha256(clientDataJSON)), this.privateKey);
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
      response: {
        clientDataJSON: b64(clientDataJSON),
        authenticatorData: b64(authData),
        signature: b64(new Uint8Array(signature)),
        ...(this.userHandle ? { userHandle: this.userHandle } : {}),
      },
    };
  }
}
