import type { FastifyInstance } from "fastify";

/**
 * Shuts a service down without cutting an answer in half: new requests (also on kept-alive
 * connections) get the shutting-down envelope, in-flight ones finish, idle keep-alive connections
 * are closed as soon as their answer is sent, and whatever is still open after `timeoutMs` is cut.
 */
export async function closeGracefully(app: FastifyInstance, timeoutMs: number): Promise<void> {
  app.startDraining();
  const timer = setTimeout(() => app.server.closeAllConnections(), timeoutMs);
  const sweeper = setInterval(() => app.server.closeIdleConnections(), 50);
  try {
    await app.close();
  } finally {
    clearTimeout(timer);
    clearInterval(sweeper);
  }
}
