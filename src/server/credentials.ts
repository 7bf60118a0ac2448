// Who may call the gateway: its client keys and its admin tokens, in one object the server
// reads on every request. A reload that rotates them (a leaked key) updates this object, so
// the new keys serve at once and the old ones stop, with no restart and no stream cut.
import type { Secret, WardenConfig } from '../config/index.js';

export type CredentialSettings = Pick<WardenConfig['server'], 'clientKeys' | 'adminToken' | 'adminTokens'>;

export interface AdminToken {
  /** Who the audit log says acted: the single `adminToken` is "admin". */
  name: string;
  token: Secret;
}

export class Credentials {
  #clientKeys: readonly Secret[] = [];
  #adminTokens: readonly AdminToken[] = [];

  constructor(settings: CredentialSettings) {
    this.update(settings);
  }

  /** Client keys; none means the gateway serves without keys (refused off loopback unless allowAnonymous). */
  get clientKeys(): readonly Secret[] {
    return this.#clientKeys;
  }

  /** Admin tokens with a value; none means the admin API is off. */
  get adminTokens(): readonly AdminToken[] {
    return this.#adminTokens;
  }

  update(settings: CredentialSettings): void {
    this.#clientKeys = settings.clientKeys;
    const tokens: AdminToken[] = settings.adminToken && !settings.adminToken.isEmpty ? [{ name: 'admin', token: settings.adminToken }] : [];
    for (const t of settings.adminTokens) if (!t.token.isEmpty) tokens.push(t);
    this.#adminTokens = tokens;
  }
}
