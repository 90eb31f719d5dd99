import type { FastifyInstance } from "fastify";
import { EntitlementError } from "../errors/entitlement-error.ts";
import { createVerifyPageLoader } from "../verify-page/load-verify-page.ts";

/** GET /verify: the self-contained verification page (issue 9 item 8). */
export function registerVerifyPageRoutes(app: FastifyInstance): void {
  const loadPage = createVerifyPageLoader();
  app.get("/verify", { schema: { hide: true } }, async (request, reply) => {
    let page: Awaited<ReturnType<typeof loadPage>>;
    try {
      page = await loadPage();
    } catch (error) {
      request.log.error({ err: error }, "the verification page could not be built");
      throw new EntitlementError(
        "NOT_FOUND",
        "path /verify: this deployment has no verification page (run npm run build:verify-page)",
      );
    }
    return reply
      .header("content-type", "text/html; charset=utf-8")
      .header("content-security-policy", `${page.csp}; frame-ancestors 'none'`)
      .header("x-content-type-options", "nosniff")
      .header("referrer-policy", "no-referrer")
      .header("cache-control", "no-cache")
      .send(page.html);
  });
}
