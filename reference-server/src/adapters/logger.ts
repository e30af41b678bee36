/**
 * Structured logs: one JSON object per line. What may be logged is decided at the call sites,
 * which pass ids, codes and redacted paths: never a key, a token or a full email address.
 */
/** `quiet` drops the per-request lines (for load tests); lifecycle lines and errors always print. */
export type LogLevel = 'requests' | 'quiet';

export interface Logger {
  request(fields: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

export function createLogger(write: (line: string) => void, level: LogLevel): Logger {
  const emit = (kind: string, message: string, fields: Record<string, unknown> = {}) =>
    write(`${JSON.stringify({ time: new Date().toISOString(), level: kind, msg: message, ...fields })}\n`);
  return {
    request: (fields) => {
      if (level === 'requests') emit('info', 'request', fields);
    },
    info: (message, fields) => emit('info', message, fields),
    error: (message, fields) => emit('error', message, fields),
  };
}
