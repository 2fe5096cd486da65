import { describe, expect, it } from 'vitest';
import { LAMBDAS } from '../../functions/registry.js';
import { lambdaEnv } from './lambdaEnv.js';

const server = {
  TABLE_NAME: 'patrol',
  CHECK_QUEUE_URL: 'http://127.0.0.1:1/check',
  JWT_SECRET: 'jwt',
  JWT_SECRET_REVISION: '1',
  ADMIN_PASSWORD: 'admin-pw',
  SECRETS_KEY_FILE: '/data/secrets.key',
  ALLOWED_PRIVATE_HOSTS: '127.0.0.1:9',
  UNSET: undefined,
};
const def = (name: string) => LAMBDAS.find((l) => l.name === name) as (typeof LAMBDAS)[number];

describe('lambdaEnv', () => {
  it('gives the checker its endpoints and the secrets key file, but no JWT secret or admin password', () => {
    const env = lambdaEnv(def('checker'), server);
    expect(env).toEqual({
      TABLE_NAME: 'patrol',
      CHECK_QUEUE_URL: 'http://127.0.0.1:1/check',
      SECRETS_KEY_FILE: '/data/secrets.key',
      ALLOWED_PRIVATE_HOSTS: '127.0.0.1:9',
    });
  });

  it('keeps the JWT secret for the API, which signs sessions', () => {
    expect(lambdaEnv(def('api'), server)).toMatchObject({ JWT_SECRET: 'jwt', JWT_SECRET_REVISION: '1' });
    expect(lambdaEnv(def('api'), server)).not.toHaveProperty('ADMIN_PASSWORD');
  });

  it('drops the secrets key file for a function without secrets access', () => {
    expect(lambdaEnv(def('checkReaper'), server)).not.toHaveProperty('SECRETS_KEY_FILE');
  });

  it('only the API holds the JWT secret among the registry functions', () => {
    expect(LAMBDAS.filter((l) => lambdaEnv(l, server).JWT_SECRET).map((l) => l.name)).toEqual(['api']);
  });
});
