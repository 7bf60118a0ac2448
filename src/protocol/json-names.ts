// Names as JSON, encoded once. Role, route, model and outcome names come from the config and
// fixed lists, so the request path looks them up rather than encoding them on every request.
// The bound only guards against values that keep changing (many reloads): past it the cache
// starts again.
const MAX_NAMES = 4096;

function cachedPerName<T>(encode: (name: string) => T): (name: string) => T {
  const cache = new Map<string, T>();
  return (name) => {
    let value = cache.get(name);
    if (value === undefined) {
      if (cache.size >= MAX_NAMES) cache.clear();
      value = encode(name);
      cache.set(name, value);
    }
    return value;
  };
}

/** `name` as a JSON string literal, quotes included. */
export const jsonName = cachedPerName((name) => JSON.stringify(name));

/** The same, as UTF-8 bytes (for splicing into a request body). */
export const jsonNameBytes = cachedPerName((name) => Buffer.from(jsonName(name)));
