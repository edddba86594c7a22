/**
 * Streamable HTTP on `node:http`: every request must carry the bearer token the user configured, compared in
 * constant time; the rest is the MCP SDK's web-standard handler, a fresh server per request.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { createMcpHandler, type McpServer } from '@modelcontextprotocol/server';

/** Where to listen, and the token a request must show. */
export interface HttpOptions {
  host: string;
  port: number;
  token: string;
}

const digest = (text: string) => createHash('sha256').update(text).digest();

function authorized(header: string | undefined, token: string): boolean {
  const given = /^Bearer (.+)$/i.exec(header ?? '')?.[1] ?? '';
  return timingSafeEqual(digest(given), digest(token));
}

function refuse(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify({ error: message }));
}

/** Serves `/mcp` until closed; resolves once listening. */
export async function serveHttp(factory: () => McpServer, { host, port, token }: HttpOptions): Promise<Server> {
  const handler = createMcpHandler(factory, { onerror: (error) => process.stderr.write(`workflow-automation-mcp: ${error.message}\n`) });
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    if (!authorized(req.headers.authorization, token)) return refuse(res, 401, 'unauthorized', { 'www-authenticate': 'Bearer' });
    const url = new URL(req.url ?? '/', `http://${host}`);
    if (url.pathname !== '/mcp') return refuse(res, 404, 'not found: the MCP endpoint is /mcp');
    // A client that goes away cancels what its request started (a wait included).
    const gone = new AbortController();
    res.on('close', () => gone.abort());
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(name, value);
    const body = req.method === 'GET' || req.method === 'HEAD' ? undefined : (Readable.toWeb(req) as ReadableStream);
    const request = new Request(url, { method: req.method ?? 'GET', headers, body, signal: gone.signal, duplex: 'half' } as RequestInit);
    const response = await handler.fetch(request);
    res.writeHead(response.status, Object.fromEntries(response.headers));
    if (!response.body) return void res.end();
    Readable.fromWeb(response.body as never).pipe(res);
  };
  const server = createServer((req, res) => {
    handle(req, res).catch((error: Error) => (res.headersSent ? res.destroy() : refuse(res, 500, error.message)));
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, host, resolve));
  server.on('close', () => void handler.close());
  return server;
}
