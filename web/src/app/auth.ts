// The stored login (spec: one fixed local key holding jwt, name, s). Everything that needs to know
// "who is signed in" reads it here; `useAuth` re-renders when it changes, in this tab or another.
import { type EnumValue, UserRole } from '@shared/enums';
import { roleAtLeast } from '@shared/roles';
import { useSyncExternalStore } from 'react';

export const AUTH_STORAGE_KEY = 'patrol.auth';

export type Role = EnumValue<typeof UserRole>;
export interface StoredAuth {
  jwt: string;
  name: string;
  /** Role. */
  s: Role;
}

const listeners = new Set<() => void>();
let cachedRaw: string | null | undefined;
let cached: StoredAuth | null = null;

function emit(): void {
  for (const l of listeners) l();
}

export function getAuth(): StoredAuth | null {
  let raw: string | null;
  try {
    raw = localStorage.getItem(AUTH_STORAGE_KEY);
  } catch {
    raw = null;
  }
  if (raw === cachedRaw) return cached;
  cachedRaw = raw;
  cached = parse(raw);
  return cached;
}

function parse(raw: string | null): StoredAuth | null {
  if (!raw) return null;
  try {
    const v = JSON.parse(raw) as Partial<StoredAuth>;
    if (typeof v.jwt !== 'string' || !v.jwt) return null;
    // A role this build does not know gets the least: the server decides anyway.
    return { jwt: v.jwt, name: String(v.name ?? ''), s: UserRole.has(v.s) ? v.s : UserRole.values.Viewer };
  } catch {
    return null;
  }
}

export function getToken(): string | null {
  return getAuth()?.jwt ?? null;
}

export function isSuper(auth: StoredAuth | null = getAuth()): boolean {
  return auth?.s === 'super';
}

/** Whether the signed-in user may change things and reveal secrets (an operator or a super user, not a viewer). */
export function canWrite(auth: StoredAuth | null = getAuth()): boolean {
  return roleAtLeast(auth?.s, 'operator');
}

/** `canWrite` for a component: write controls are hidden or disabled when it is false. */
export function useCanWrite(): boolean {
  return canWrite(useAuth());
}

export function setAuth(auth: StoredAuth): void {
  localStorage.setItem(AUTH_STORAGE_KEY, JSON.stringify(auth));
  emit();
}

export function clearAuth(): void {
  localStorage.removeItem(AUTH_STORAGE_KEY);
  emit();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (e: StorageEvent) => {
    if (e.key === AUTH_STORAGE_KEY || e.key === null) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

export function useAuth(): StoredAuth | null {
  return useSyncExternalStore(subscribe, getAuth, () => null);
}
