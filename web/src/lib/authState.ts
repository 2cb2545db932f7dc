/**
 * The browser's authentication state (000 §3 Authentication state: tokenTimeoutInSeconds, lastSeen,
 * passwordExpiryState), kept in local storage so every tab and a reload share it. lastSeen moves on every
 * successful secure call (000 §4 Session timeout); the inactivity countdown reads it.
 */
import { CONSTANTS, type PasswordExpiryState } from '@portal/contract';
import { useSyncExternalStore } from 'react';
import { setSecureSuccessHandler } from './apiClient';

export interface AuthState {
  tokenTimeoutInSeconds: number;
  /** Epoch milliseconds of the last successful secure call. */
  lastSeen: number;
  passwordExpiryState: PasswordExpiryState | null;
  /** Who signed in (the standalone Change Password screen signs in again with it after a forced change). */
  username: string | null;
}

const KEY = 'authState';
const EVENT = 'portal-auth-state';
let cachedRaw: string | null | undefined;
let cached: AuthState | null = null;

function read(): AuthState | null {
  const raw = localStorage.getItem(KEY);
  if (raw === cachedRaw) return cached;
  cachedRaw = raw;
  try {
    cached = raw ? (JSON.parse(raw) as AuthState) : null;
  } catch {
    cached = null;
  }
  return cached;
}

/** The stored state (null when signed out). */
export function getAuthState(): AuthState | null {
  return read();
}

/** Merges `patch` into the stored state (a missing state starts with the 000 §9 defaults). */
export function updateAuthState(patch: Partial<AuthState>): void {
  const base: AuthState = read() ?? {
    tokenTimeoutInSeconds: CONSTANTS.defaultTokenTimeoutSeconds,
    lastSeen: Date.now(),
    passwordExpiryState: null,
    username: null,
  };
  localStorage.setItem(KEY, JSON.stringify({ ...base, ...patch }));
  window.dispatchEvent(new Event(EVENT));
}

export function clearAuthState(): void {
  localStorage.removeItem(KEY);
  window.dispatchEvent(new Event(EVENT));
}

/**
 * Seconds left before the session times out (000 §4): tokenTimeoutInSeconds (3600 when none is stored)
 * minus the seconds since lastSeen.
 */
export function secondsRemaining(now = Date.now()): number {
  const s = read();
  const timeout = s?.tokenTimeoutInSeconds ?? CONSTANTS.defaultTokenTimeoutSeconds;
  return timeout - (now - (s?.lastSeen ?? now)) / 1000;
}

function subscribe(onChange: () => void): () => void {
  window.addEventListener(EVENT, onChange);
  window.addEventListener('storage', onChange);
  return () => {
    window.removeEventListener(EVENT, onChange);
    window.removeEventListener('storage', onChange);
  };
}

/** The stored state as a React value. */
export function useAuthState(): AuthState | null {
  return useSyncExternalStore(subscribe, read);
}

// Every successful secure call counts as activity (000 §4 "lastSeen is refreshed on every successful secure call").
setSecureSuccessHandler(() => {
  if (read()) updateAuthState({ lastSeen: Date.now() });
});
