// Upstream error text reaches clients: a 4xx passed through as written, a 5xx's message, an
// error event relayed mid-stream, the start of a body that was not JSON. Some upstreams quote
// the request's credentials in it (a proxy's "invalid key Bearer sk-…", a debug page listing
// the headers), so Warden's own credentials for that upstream are cut out of such text first.

const REDACTED = '[secret]';
/** Shorter header values (a "1", a "true") are settings, not credentials, and would shred text. */
const MIN_LENGTH = 8;

/** The credential values among a route's upstream headers: the bearer token and each provider header's value, longest first. */
export function credentialsIn(headers: Readonly<Record<string, string>>): string[] {
  const found = new Set<string>();
  for (const [name, value] of Object.entries(headers)) {
    if (name === 'content-type') continue;
    const credential = name === 'authorization' ? value.replace(/^Bearer /, '') : value;
    if (credential.length >= MIN_LENGTH) found.add(credential);
  }
  // Longest first: a credential that contains another is replaced whole.
  return [...found].sort((a, b) => b.length - a.length);
}

/** `text` with every occurrence of a credential replaced by "[secret]". */
export function redactText(text: string, credentials: readonly string[]): string {
  let out = text;
  for (const credential of credentials) if (out.includes(credential)) out = out.split(credential).join(REDACTED);
  return out;
}

/** `body` itself when it holds no credential (no copy, the usual case), else a redacted copy. */
export function redactBody(body: Buffer, credentials: readonly string[]): Buffer {
  for (const credential of credentials) if (body.includes(credential)) return Buffer.from(redactText(body.toString('utf8'), credentials));
  return body;
}
