/** Progress and diagnostics on stderr (stdout stays clean); `json` gives one object per line. */
export interface Logger {
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

export function createLogger(
  format: "text" | "json",
  write: (line: string) => void = (line) => process.stderr.write(line),
): Logger {
  const started = Date.now();
  const emit = (level: string, msg: string, fields: Record<string, unknown> = {}) => {
    const elapsed_s = Math.round((Date.now() - started) / 100) / 10;
    if (format === "json") {
      write(`${JSON.stringify({ time: new Date().toISOString(), level, msg, elapsed_s, ...fields })}\n`);
      return;
    }
    const extra = Object.entries(fields)
      .map(([key, value]) => `${key}=${typeof value === "string" ? value : JSON.stringify(value)}`)
      .join(" ");
    write(
      `[svc-runner ${elapsed_s.toFixed(1)}s] ${level === "info" ? "" : `${level.toUpperCase()}: `}${msg}${extra ? ` ${extra}` : ""}\n`,
    );
  };
  return {
    info: (msg, fields) => emit("info", msg, fields),
    warn: (msg, fields) => emit("warn", msg, fields),
    error: (msg, fields) => emit("error", msg, fields),
  };
}
