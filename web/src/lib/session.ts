import { createStore, useStore } from './store.ts';

/** Client storage keys (spec §3 "Client storage"). */
export const STORAGE_KEYS = {
  authenticated: 'isAuthenticated',
  admin: 'isAdmin',
  sessionToken: 'sessionToken',
  welcomeAgreed: 'welcomeAgreed',
} as const;

export type UserType = 'guest' | 'admin' | 'auditor';

export interface LoginResponse {
  success: boolean;
  userType?: UserType;
  sessionToken?: string;
  message?: string;
}

export interface Session {
  /** The authenticated flag or the admin flag is 'true' (spec §4 Gate). */
  signedIn: boolean;
  admin: boolean;
}

function read(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function stored(): Session {
  const admin = read(STORAGE_KEYS.admin) === 'true';
  return { signedIn: admin || read(STORAGE_KEYS.authenticated) === 'true', admin };
}

const session = createStore<Session>(stored());

/** Re-reads the stored flags and tells subscribers (the gate rechecks at start, +100 ms, +300 ms). */
export function refreshSession(): void {
  const next = stored();
  const now = session.get();
  if (next.signedIn !== now.signedIn || next.admin !== now.admin) session.set(next);
}

// another tab signed in or out
if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.key === null || Object.values<string>(STORAGE_KEYS).includes(event.key)) refreshSession();
  });
}

export function useSession(): Session {
  return useStore(session);
}

/** The stored flags as they are now (outside React: loaders, the live client). */
export function getSession(): Session {
  return stored();
}

/** Set at an auditor's login: the header then links the audit console (not a spec storage key). */
const AUDITOR_KEY = 'isAuditor';

export function isAuditor(): boolean {
  return read(AUDITOR_KEY) === 'true';
}

export function getSessionToken(): string | null {
  return read(STORAGE_KEYS.sessionToken);
}

/** Keeps the token only; the flags come later so the gate stays up (e.g. during the birthday modal). */
export function storeSessionToken(token: string | undefined): void {
  if (token) localStorage.setItem(STORAGE_KEYS.sessionToken, token);
}

export function storeSignedIn(userType: UserType): void {
  localStorage.setItem(STORAGE_KEYS.authenticated, 'true');
  if (userType === 'admin') localStorage.setItem(STORAGE_KEYS.admin, 'true');
  if (userType === 'auditor') localStorage.setItem(AUDITOR_KEY, 'true');
  refreshSession();
}

export function clearSession(): void {
  localStorage.removeItem(STORAGE_KEYS.authenticated);
  localStorage.removeItem(STORAGE_KEYS.admin);
  localStorage.removeItem(AUDITOR_KEY);
  localStorage.removeItem(STORAGE_KEYS.sessionToken);
  refreshSession();
}

export function hasAgreedToWelcome(): boolean {
  return read(STORAGE_KEYS.welcomeAgreed) === 'true';
}

export function storeWelcomeAgreed(): void {
  localStorage.setItem(STORAGE_KEYS.welcomeAgreed, 'true');
}
