export { decryptSecret, encryptSecret, isEncryptedSecret, resetSecretKeys, SecretDecryptError } from './envelope.js';
export { maskSecret } from './maskSecret.js';
