/**
 * Which of the platform's services answers at `origin`, from the public probes each one has:
 * preflight's `GET /api/health` names itself (`svc-preflight`); the entitlement service publishes its
 * seal keys at `GET /api/seal/keys`. null when neither answers so (another server, or none). Used
 * to explain a 404 (issue 28 item 6): a context whose preflight URL points at the entitlement
 * service gets "answers like an entitlement service", not a bare Not Found.
 */
export async function identifyService(origin: string): Promise<"preflight" | "entitlement" | null> {
  const probe = async (path: string): Promise<unknown> => {
    try {
      const response = await fetch(new URL(path, origin), { signal: AbortSignal.timeout(3000) });
      return response.ok ? await response.json() : null;
    } catch {
      return null;
    }
  };
  const health = (await probe("/api/health")) as { service?: unknown } | null;
  if (health?.service === "svc-preflight") return "preflight";
  const keys = (await probe("/api/seal/keys")) as { keys?: unknown } | null;
  if (Array.isArray(keys?.keys)) return "entitlement";
  return null;
}
