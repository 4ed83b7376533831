import { queryOptions } from '@tanstack/react-query';
import { api } from '../lib/api.ts';
import type { LoginResponse } from '../lib/session.ts';

export interface GateInfo {
  /** The riddle question on the birthday ('How old is {name} turning?'), else null. */
  riddle: string | null;
}

export function gateQueryOptions() {
  return queryOptions({
    queryKey: ['gate'] as const,
    queryFn: ({ signal }) => api<GateInfo>('/api/gate', { signal }),
  });
}

/** `name` is kept for admins and auditors only, as the actor of what they do (CONTRACT §6). */
export function login(password: string, name?: string): Promise<LoginResponse> {
  return api<LoginResponse>('/api/auth/login', { method: 'POST', body: { password, name: name?.trim() || undefined } });
}

export function answerRiddle(answer: string): Promise<LoginResponse> {
  return api<LoginResponse>('/api/auth/riddle', { method: 'POST', body: { answer } });
}

export function logout(): Promise<unknown> {
  return api('/api/auth/logout', { method: 'POST' });
}
