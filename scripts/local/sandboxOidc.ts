import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type SandboxOidcHandle, startSandboxOidc } from '../sandbox/oidc/server.js';
import { ensureKeyFile } from './keys.js';

// The sandbox OIDC provider's address is its issuer, which the system config names (the demo points
// single sign-on at it). It listens on the port it had at the previous start when that port is free
// (DATA_DIR/sandbox-oidc-url.txt), so the config stays right; on another port, followSandboxOidc
// moves a config that named the previous address to the new one.

const urlFile = (dataDir: string) => join(dataDir, 'sandbox-oidc-url.txt');

/**
 * The sandbox accounts' password: made on first start and kept like a key (0600), so the demo's single
 * sign-on is no well-known way into the users it maps (tests read it from here too).
 */
export const sandboxOidcPasswordFile = (dataDir: string) => join(dataDir, 'sandbox-oidc-password.txt');

/** Starts the provider on its previous port if it can, else on a free one. */
export async function startLocalSandboxOidc(dataDir: string, publicUrl: string): Promise<SandboxOidcHandle> {
  const redirectUris = [`${publicUrl.replace(/\/+$/, '')}/api/v1/auth/oidc/callback`];
  const password = await ensureKeyFile(sandboxOidcPasswordFile(dataDir), 12);
  const previous = (await readFile(urlFile(dataDir), 'utf8').catch(() => '')).trim();
  const port = previous ? Number(new URL(previous).port) : 0;
  if (port) {
    try {
      return await startSandboxOidc({ port, redirectUris, password });
    } catch {
      // Taken by something else meanwhile: a free port, and the config follows.
    }
  }
  return startSandboxOidc({ port: 0, redirectUris, password });
}

/**
 * After the stack is up: a config whose issuer is the previous sandbox address gets the new one (a
 * version saved by "local stack"), and the address is remembered. Never throws.
 */
export async function followSandboxOidc(dataDir: string, issuer: string): Promise<void> {
  const previous = (await readFile(urlFile(dataDir), 'utf8').catch(() => '')).trim();
  try {
    if (previous && previous !== issuer) {
      const { readSystemConfigState } = await import('../../functions/systemConfig/service.js');
      const { systemConfigStore } = await import('../../functions/systemConfig/store.js');
      const { diffConfig } = await import('../../shared/schemas/systemConfig.js');
      const state = await readSystemConfigState();
      if (state.document.sso.issuer === previous) {
        const document = { ...state.document, sso: { ...state.document.sso, issuer } };
        await systemConfigStore().save(
          { document, changes: diffConfig(state.document, document), by: { id: 0, nickname: 'local stack' } },
          state.version,
        );
      }
    }
    await writeFile(urlFile(dataDir), `${issuer}\n`);
  } catch (error) {
    console.warn('[local] could not move single sign-on to the new sandbox provider', error);
  }
}
