// The admin API as the page calls it: relative paths (so a proxy prefix keeps working), the
// admin token from sessionStorage (gone when the tab closes), errors with the gateway's code.

const TOKEN_KEY = 'warden.adminToken';

export const token = {
  get: () => sessionStorage.getItem(TOKEN_KEY) ?? '',
  set: (value) => sessionStorage.setItem(TOKEN_KEY, value),
  clear: () => sessionStorage.removeItem(TOKEN_KEY),
};

export class ApiError extends Error {
  constructor(status, code, message, param = null) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    /** The field at fault, when the gateway names one (`roles.chat.models[1]`, `reason`). */
    this.param = param;
  }
}

/** `api('POST', 'admin/blocklist', {route, reason})` → the parsed JSON answer, or throws ApiError; `signal` aborts it. */
export async function api(method, path, body, signal) {
  const headers = { authorization: `Bearer ${token.get()}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  let res;
  try {
    res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), cache: 'no-store', signal });
  } catch (e) {
    throw new ApiError(0, 'network_error', `the gateway did not answer (${e.message})`);
  }
  const text = await res.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!res.ok) throw new ApiError(res.status, data?.error?.code ?? `http_${res.status}`, data?.error?.message ?? `HTTP ${res.status}`, data?.error?.param ?? null);
  return data;
}
