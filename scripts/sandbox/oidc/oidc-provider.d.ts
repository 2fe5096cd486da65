// oidc-provider ships no types; only what the sandbox provider uses.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  interface Grant {
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
  }
  interface GrantConstructor {
    new (init: { clientId: string; accountId: string }): Grant;
    find(id: string): Promise<Grant | undefined>;
  }
  export interface KoaContextWithOIDC {
    type: string;
    body: unknown;
    oidc: {
      client?: { clientId: string };
      session?: { accountId?: string; grantIdFor(clientId: string): string | undefined };
      provider: { Grant: GrantConstructor };
    };
  }
  export interface Configuration {
    adapter: unknown;
    clients: Record<string, unknown>[];
    jwks: { keys: Record<string, unknown>[] };
    cookies: { keys: string[] };
    claims: Record<string, string[]>;
    conformIdTokenClaims: boolean;
    acrValues: string[];
    findAccount(
      ctx: KoaContextWithOIDC,
      id: string,
    ): Promise<{ accountId: string; claims(): Promise<Record<string, unknown>> }>;
    features: Record<string, unknown>;
    interactions: { url(ctx: KoaContextWithOIDC, interaction: { uid: string }): string };
    pkce: { required(): boolean };
    ttl: Record<string, number>;
    loadExistingGrant(ctx: KoaContextWithOIDC): Promise<Grant | undefined>;
    renderError(ctx: KoaContextWithOIDC, out: Record<string, unknown>, error: Error): void;
  }
  export default class Provider {
    constructor(issuer: string, configuration: Configuration);
    proxy: boolean;
    Client: { find(id: string): Promise<{ clientName?: string } | undefined> };
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    interactionDetails(
      req: IncomingMessage,
      res: ServerResponse,
    ): Promise<{ uid: string; params: Record<string, unknown>; prompt: { name: string } }>;
    interactionFinished(
      req: IncomingMessage,
      res: ServerResponse,
      result: Record<string, unknown>,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>;
  }
}

declare module 'oidc-provider/lib/adapters/memory_adapter.js' {
  export function createMemoryAdapter(clockTolerance?: number): unknown;
}
