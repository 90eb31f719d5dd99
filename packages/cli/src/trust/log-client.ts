import { consistencyResponseSchema, type IssuerLogAnswer, logProofSchema } from "@svc/core";
import { CliError } from "../cli-error.ts";

const TIMEOUT_MS = 10_000;

/**
 * The most bytes read of one answer of the issuer's log (issue 38 item 2): a checkpoint note is at
 * most 10 000 characters and a proof 64 hashes, so 1 MiB is far above any honest answer; a
 * 300 MB answer was read whole (1 GB, 9 s).
 */
export const MAX_LOG_ANSWER_BYTES = 1024 * 1024;

/** An answer of the issuer's log over {@link MAX_LOG_ANSWER_BYTES}: refused, the rest never read (ISSUER_RESPONSE_INVALID). */
export class LogAnswerTooLarge extends CliError {
  constructor(message: string) {
    super("ISSUER_RESPONSE_INVALID", message);
  }
}

/** GET a JSON or text document of the issuer's log; a refusal is the answer's status. */
async function get(url: URL): Promise<{ status: number; text: string }> {
  const response = await fetch(url, { redirect: "error", signal: AbortSignal.timeout(TIMEOUT_MS) });
  const tooLarge = () =>
    new LogAnswerTooLarge(`GET ${url}: the answer is over ${MAX_LOG_ANSWER_BYTES} bytes, not read further`);
  if (Number(response.headers.get("content-length") ?? 0) > MAX_LOG_ANSWER_BYTES) {
    await response.body?.cancel();
    throw tooLarge();
  }
  const chunks: Uint8Array[] = [];
  let length = 0;
  if (response.body !== null) {
    const reader = response.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      length += value.byteLength;
      if (length > MAX_LOG_ANSWER_BYTES) {
        await reader.cancel();
        throw tooLarge();
      }
      chunks.push(value);
    }
  }
  return { status: response.status, text: Buffer.concat(chunks).toString("utf8") };
}

function causeOf(error: unknown): string {
  return (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message;
}

/** `GET /api/log/checkpoint`: the issuer's latest signed checkpoint note (throws when unreachable or refused). */
export async function fetchLatestCheckpoint(issuer: URL): Promise<string> {
  const url = new URL("/api/log/checkpoint", issuer);
  const answer = await get(url);
  if (answer.status !== 200) throw new Error(`GET ${url}: HTTP ${answer.status}`);
  return answer.text;
}

/** `GET /api/log/proof/consistency`: the proof from `from` to the current size, with its checkpoint. */
export async function fetchConsistency(
  issuer: URL,
  from: number,
): Promise<{ to: number; consistency_proof: string[]; checkpoint: string }> {
  const url = new URL(`/api/log/proof/consistency?from=${from}`, issuer);
  const answer = await get(url);
  const parsed = consistencyResponseSchema.safeParse(answer.status === 200 ? JSON.parse(answer.text) : null);
  if (!parsed.success) throw new Error(`GET ${url}: HTTP ${answer.status}, not a consistency proof`);
  return parsed.data;
}

/**
 * What the issuer's log says about a seal kept in a run folder (issue 30 item 4): the proof that
 * its log extends the folder's checkpoint, and the seal's leaf in its current tree. Never throws.
 */
export async function askIssuerLog(
  issuer: URL,
  sealId: string,
  storedSize: number,
): Promise<IssuerLogAnswer> {
  try {
    const consistency = await fetchConsistency(issuer, storedSize);
    const url = new URL(
      `/api/log/proof/inclusion?seal_id=${encodeURIComponent(sealId)}&tree_size=${consistency.to}`,
      issuer,
    );
    const answer = await get(url);
    if (answer.status === 404) return { consistency, inclusion: null };
    const inclusion = logProofSchema.safeParse(answer.status === 200 ? JSON.parse(answer.text) : null);
    if (!inclusion.success)
      return { unreachable: `GET ${url}: HTTP ${answer.status}, not an inclusion proof` };
    return { consistency, inclusion: inclusion.data };
  } catch (error) {
    return { unreachable: causeOf(error) };
  }
}
