// The credentials of an `Authorization: Bearer <token>` header. The scheme name is
// case-insensitive (RFC 9110 §11.1): a client or proxy that writes `bearer` is not refused.

/** The token, trimmed; '' for no header, another scheme, or a bare scheme name. */
export function bearerToken(header: string | undefined): string {
  if (header === undefined || header.length <= 7) return '';
  const scheme = header.charCodeAt(6);
  if ((scheme !== 32 && scheme !== 9) || header.slice(0, 6).toLowerCase() !== 'bearer') return '';
  return header.slice(7).trim();
}
