// What a role's tier answers with once its chain is spent (seed 001's tiers): a structured role
// its configured default, a conversational one its degrade message, and otherwise a 503 —
// a strict role never degrades to another model, so its message says so.
import type { RoleConfig } from '../config/index.js';

export interface StandInAnswer {
  content: string;
  /** The header that tells the client this is not a model's answer. */
  header: 'x-warden-default' | 'x-warden-degraded';
  result: 'default' | 'degraded';
}

/** The tier's stand-in answer, or null when the tier answers with a 503. */
export function standInAnswer(config: RoleConfig): StandInAnswer | null {
  if (config.tier === 'default' && config.default) return { content: config.default.content, header: 'x-warden-default', result: 'default' };
  if (config.tier === 'degrade' && config.degradeMessage !== undefined) return { content: config.degradeMessage, header: 'x-warden-degraded', result: 'degraded' };
  return null;
}

/** The 503's message: `why` lists each route tried and the reason it was left. */
export function unavailableMessage(role: string, config: RoleConfig, attempts: number, why: string): string {
  return config.tier === 'strict'
    ? `role "${role}" is strict and does not degrade to another model; its model cannot answer now (${why})`
    : `role "${role}" could not get a usable answer within ${attempts} attempt(s) (${why})`;
}
