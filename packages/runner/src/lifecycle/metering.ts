/** Outcome of one usage report, recorded in the run manifest. */
export interface MeteringRecord {
  readonly configured: boolean;
  readonly metric: string | null;
  readonly reported: boolean;
  readonly status: number | null;
  readonly error: string | null;
}

/**
 * Reports one run to the ubbagent sidecar (domain notes: POST <agent>/report). Never throws: a
 * refused report is logged and recorded, the customer's paid run is not failed for it.
 */
export async function reportUsage(options: {
  agentUrl: string | null;
  metric: string;
  startTime: string;
  endTime: string;
  timeoutMs?: number;
}): Promise<MeteringRecord> {
  if (options.agentUrl === null)
    return { configured: false, metric: null, reported: false, status: null, error: null };
  const body = {
    name: options.metric,
    startTime: options.startTime,
    endTime: options.endTime,
    value: { int64Value: 1 },
    labels: {},
  };
  try {
    const response = await fetch(new URL("/report", options.agentUrl), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(options.timeoutMs ?? 5000),
    });
    const ok = response.ok;
    const text = ok ? null : (await response.text().catch(() => "")).slice(0, 200);
    return {
      configured: true,
      metric: options.metric,
      reported: ok,
      status: response.status,
      error: ok ? null : text,
    };
  } catch (error) {
    return {
      configured: true,
      metric: options.metric,
      reported: false,
      status: null,
      error: (error as Error).message,
    };
  }
}
