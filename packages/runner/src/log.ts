/** Progress and diagnostics on stderr (stdout stays clean); `json` gives one object per line. */
export interface Logger {
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  /**
   * A progress report: a JSON line in `json` format, one line redrawn in place on a terminal,
   * else an ordinary line. `final` ends a redrawn line.
   */
  progress(msg: string, fields: Record<string, unknown>, final?: boolean): void;
}

export interface LoggerOptions {
  readonly write?: (line: string) => void;
  /** Redraw progress in place (stderr is a terminal); default: `process.stderr.isTTY`. */
  readonly tty?: boolean;
}

export function createLogger(format: "text" | "json", options: LoggerOptions = {}): Logger {
  const write = options.write ?? ((line: string) => process.stderr.write(line));
  const tty = options.tty ?? process.stderr.isTTY === true;
  const started = Date.now();
  let redrawing = false;
  const render = (level: string, msg: string, fields: Record<string, unknown> = {}) => {
    const elapsed_s = Math.round((Date.now() - started) / 100) / 10;
    if (format === "json")
      return JSON.stringify({ time: new Date().toISOString(), level, msg, elapsed_s, ...fields });
    const extra = Object.entries(fields)
      .map(([key, value]) => `${key}=${typeof value === "string" ? value : JSON.stringify(value)}`)
      .join(" ");
    return `[svc-runner ${elapsed_s.toFixed(1)}s] ${level === "info" ? "" : `${level.toUpperCase()}: `}${msg}${extra ? ` ${extra}` : ""}`;
  };
  const emit = (level: string, msg: string, fields?: Record<string, unknown>) => {
    // A redrawn progress line is ended before any other line so neither is overwritten.
    if (redrawing) write("\n");
    redrawing = false;
    write(`${render(level, msg, fields)}\n`);
  };
  return {
    info: (msg, fields) => emit("info", msg, fields),
    warn: (msg, fields) => emit("warn", msg, fields),
    error: (msg, fields) => emit("error", msg, fields),
    progress: (msg, fields, final = false) => {
      if (format === "json" || !tty) {
        emit("info", msg, fields);
        return;
      }
      // \r + erase-line (ECMA-48 EL, CSI K): one line updated in place.
      write(`\r\x1b[K${render("info", msg, fields)}${final ? "\n" : ""}`);
      redrawing = !final;
    },
  };
}
