// The benches' way into the local stack's API: one call, the envelope's data back (or a thrown
// error naming the call), and the read units the server reports for it.
import { HEADERS } from '../shared/envelope.js';

export type ApiCall = (
  method: string,
  path: string,
  token?: string,
  body?: unknown,
) => Promise<{ data: unknown; rcu: number }>;

export function apiCaller(baseUrl: string): ApiCall {
  return async (method, path, token, body) => {
    const res = await fetch(`${baseUrl}/api/v1${path}`, {
      method,
      headers: {
        accept: 'application/json',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    });
    const json = (await res.json()) as { msg: string; data?: unknown };
    if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${json.msg}`);
    return { data: json.data, rcu: Number(res.headers.get(HEADERS.consumedCapacity) ?? Number.NaN) };
  };
}
