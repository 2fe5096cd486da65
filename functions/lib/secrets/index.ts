export {
  decryptSecret,
  encryptSecret,
  isEncryptedSecret,
  resetSecretKeys,
  type SecretContext,
  SecretDecryptError,
} from './envelope.js';
export { maskSecret } from './maskSecret.js';
