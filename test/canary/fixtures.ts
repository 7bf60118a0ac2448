// Builders for canary tests: exchanges as the runner reports them, results and rounds, and
// realistic replies (the seed's faults: a stray "*", a leaked template token, Portuguese
// drifting into Spanish, broken JSON, a refusal of a plainly allowed scene).
import { canaryPolicy, type CanaryPolicy, type ProbeExchange, type ProbeKind, type ProbeResult, type ProbeVerdict } from '../../src/canary/index.js';

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
export const ROUND = 30 * MINUTE;
export const T0 = Date.UTC(2026, 10, 29, 12, 0, 0);

export const ENFORCE: CanaryPolicy = canaryPolicy({ mode: 'enforce', languages: ['en', 'pt', 'ja'] });
export const OBSERVE: CanaryPolicy = canaryPolicy({ mode: 'observe', languages: ['en', 'pt', 'ja'] });

export function ok(text: string, extra: Partial<ProbeExchange> = {}): ProbeExchange {
  return { outcome: 'ok', status: 200, text, finishReason: 'stop', firstTokenMs: null, totalMs: 900, error: null, ...extra };
}

export function failed(outcome: ProbeExchange['outcome'], status: number | null, error: string | null): ProbeExchange {
  return { outcome, status, text: '', finishReason: null, firstTokenMs: null, totalMs: 30_000, error };
}

export function result(kind: ProbeKind, verdict: ProbeVerdict, reason = verdict === 'pass' ? 'ok' : `${verdict}_reason`, language: string | null = null): ProbeResult {
  return { kind, language, verdict, reason, evidence: {} };
}

export const REPLIES = {
  strayAsterisk: '*Of course! We have one room left upstairs, right by the chimney. It is yours for two silver coins.',
  templateToken: '<|im_start|>assistant\nOf course! We have one room left upstairs, right by the chimney.',
  cleanInnkeeper: '*Mira smiles and sets down her cloth.* Evening, traveller! You are in luck: one room is left upstairs, right above the warm kitchen.',
  refusal: "I'm sorry, but I can't continue this story.",
  continuation: '*Bram sets his hammer-calloused elbow on the table and laughs.* "You? Against me? Fine, Elena — but when you lose, I want the good cider."',
  /** Seed 000's second case: a Portuguese reply with Spanish sentences (412 characters). */
  portugueseWithSpanish:
    'Boa noite, viajante! Seja bem-vindo à Lanterna de Prata, a pousada mais antiga da cidade. Aqui se reúnem mercadores, músicos e pescadores que voltam do porto ao anoitecer. Por la noche, los viajeros cuentan historias junto a la chimenea y nadie se va sin probar nuestro guiso. O quarto lá de cima está quentinho e a cama tem lençóis limpos. Si quieres, te preparo una habitación en el piso de arriba ahora mismo.',
  portuguese:
    'Boa noite, viajante! Seja bem-vindo à Lanterna de Prata, a pousada mais antiga da cidade. Aqui se reúnem mercadores, músicos e pescadores que voltam do porto ao anoitecer. À noite, os viajantes contam histórias perto da lareira e ninguém vai embora sem provar o nosso ensopado de cordeiro.',
  brokenJson: '{"city": "Paris", "country": "France"',
  jsonInProse: 'Sure! Here is the JSON: {"city": "Paris", "country": "France"}',
  json: '{"city": "Paris", "country": "France"}',
} as const;

/** The model the simulated OpenRouter fleet serves in gateway-level canary tests. */
export const FLEET_MODEL = 'deepseek/deepseek-chat';

/**
 * A gateway config over the simulated OpenRouter fleet: one model (each endpoint a route),
 * one role, a canary watching it in `mode` on English; `head` adds top-level sections and
 * `canary` fields of the canary section.
 */
export const fleetCanaryYaml =
  (mode: 'observe' | 'enforce', head = '', canary = '') =>
  (fleet: { openrouterBaseUrl: string }): string => `
${head}
providers:
  openrouter: { kind: openrouter, baseUrl: "${fleet.openrouterBaseUrl}" }
models:
  chat-main: { provider: openrouter, model: ${FLEET_MODEL} }
roles:
  chat: { tier: degrade, models: [chat-main] }
canary: { mode: ${mode}, watch: [chat-main], languages: [en], firstTokenLimit: 2s${canary ? `, ${canary}` : ''} }
`;
