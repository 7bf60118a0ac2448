// Where a store reports trouble: the gateway's logger in practice, the console by default.
// Stores give it file names, prefixes and their backend's messages, never stored data.

export interface StoreLog {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** The Redis store also says when it recovers. */
export interface RedisStoreLog extends StoreLog {
  info(obj: object, msg: string): void;
}

export const CONSOLE_LOG: RedisStoreLog = {
  info: (obj, msg) => console.info(msg, obj),
  warn: (obj, msg) => console.warn(msg, obj),
  error: (obj, msg) => console.error(msg, obj),
};
