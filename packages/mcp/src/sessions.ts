/**
 * 2025-era clients over Streamable HTTP (what hosts speak today): one server per session, so a client's
 * `notifications/cancelled` reaches the server running the request it cancels. 2026-era requests are each
 * complete in themselves, and go to the MCP SDK's per-request handler instead.
 */
import { randomUUID } from 'node:crypto';
import { WebStandardStreamableHTTPServerTransport, type McpServer } from '@modelcontextprotocol/server';

/** Sessions kept at most: the oldest is closed for a new one, so clients that never say goodbye cannot pile up. */
const MAX_SESSIONS = 1_000;

const notFound = () =>
  Response.json({ jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Session not found: initialize again' } }, { status: 404 });

/** Answers one 2025-era request, in its session or starting one. */
export function sessionHandler(factory: () => McpServer): (request: Request, parsedBody: unknown) => Promise<Response> {
  const sessions = new Map<string, WebStandardStreamableHTTPServerTransport>();
  return async (request, parsedBody) => {
    const id = request.headers.get('mcp-session-id');
    if (id !== null) {
      const transport = sessions.get(id);
      return transport ? transport.handleRequest(request, { parsedBody }) : notFound();
    }
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      onsessioninitialized: (started) => {
        if (sessions.size >= MAX_SESSIONS) void sessions.values().next().value?.close();
        sessions.set(started, transport);
      },
      onsessionclosed: (ended) => void sessions.delete(ended),
    });
    transport.onclose = () => void (transport.sessionId && sessions.delete(transport.sessionId));
    await factory().connect(transport);
    return transport.handleRequest(request, { parsedBody });
  };
}
