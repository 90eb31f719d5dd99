// cli-progress is CommonJS: its named exports are reached through the module object.
import cliProgress from "cli-progress";
import { formatBytes } from "./format-bytes.ts";

const { Format, SingleBar } = cliProgress;

/** A byte progress reporter: bar, bytes, rate and ETA on a terminal; silent otherwise. */
export interface ByteProgress {
  update(bytes: number): void;
  stop(): void;
}

/**
 * cli-progress renders the bar (only when `stream` is a TTY, so logs and pipes stay clean); we
 * give it human byte counts and the rate since the start. `total` null: no bar, bytes and rate only.
 */
export function startByteProgress(
  label: string,
  total: number | null,
  start: number,
  stream: NodeJS.WriteStream,
): ByteProgress {
  const began = Date.now();
  const rate = (bytes: number) => formatBytes(((bytes - start) * 1000) / Math.max(1, Date.now() - began));
  const bar = new SingleBar({
    stream,
    hideCursor: true,
    clearOnComplete: false,
    etaBuffer: 50,
    format: (options, params, payload: { done: string; size: string; rate: string }) =>
      total === null
        ? `${label} ${payload.done} ${payload.rate}/s`
        : `${label} ${Format.BarFormat(params.progress, options)} ${Math.floor(params.progress * 100)}% ${payload.done}/${payload.size} ${payload.rate}/s ETA ${Format.TimeFormat(params.eta, options, 1)}`,
  });
  const sizeLabel = total === null ? "?" : formatBytes(total);
  bar.start(total ?? 1, start, { done: formatBytes(start), size: sizeLabel, rate: "0 B" });
  return {
    update(bytes) {
      bar.update(total === null ? 0 : bytes, {
        done: formatBytes(bytes),
        size: sizeLabel,
        rate: rate(bytes),
      });
    },
    stop() {
      bar.stop();
    },
  };
}
