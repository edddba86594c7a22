/**
 * Streamable HTTP on `node:http`: every request must carry the bearer token the user configured, compared in
 * constant time; then 2025-era requests go to their session, 2026-era ones to the MCP SDK's per-request handler.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createMcpHandler, isLegacyRequest, type McpServer } from '@modelcontextprotocol/server';
import { sessionHandler } from './sessions.js';

/** Where to listen, and the token a request must show. */
export interface HttpOptions {
  host: string;
  port: number;
  token: string;
}

/** The largest request body read, as the MCP SDK's own default. */
const MAX_BODY_BYTES = 4 * 1024 * 1024;

const digest = (text: string) => createHash('sha256').update(text).digest();

function authorized(header: string | undefined, token: string): boolean {
  const given = /^Bearer (.+)$/i.exec(header ?? '')?.[1] ?? '';
  return timingSafeEqual(digest(given), digest(token));
}

function refuse(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify({ error: message }));
}

/** The body as text (`undefined` for a GET, or over the limit). */
async function readBody(req: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function parseJson(text: string): unknown {
  try {
    return text === '' ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Serves `/mcp` until closed; resolves once listening. */
export async function serveHttp(factory: () => McpServer, { host, port, token }: HttpOptions): Promise<Server> {
  const onerror = (error: Error) => process.stderr.write(`workflow-automation-mcp: ${error.message}\n`);
  const modern = createMcpHandler(factory, { legacy: 'reject', onerror });
  const legacy = sessionHandler(factory);
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    if (!authorized(req.headers.authorization, token)) return refuse(res, 401, 'unauthorized', { 'www-authenticate': 'Bearer' });
    const url = new URL(req.url ?? '/', `http://${host}`);
    if (url.pathname !== '/mcp') return refuse(res, 404, 'not found: the MCP endpoint is /mcp');
    // A client that goes away cancels what its request started (a wait included).
    const gone = new AbortController();
    res.on('close', () => gone.abort());
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(name, value);
    const text = await readBody(req);
    if (text === undefined) return refuse(res, 413, `request body over ${MAX_BODY_BYTES} bytes`);
    const method = req.method ?? 'GET';
    const request = new Request(url, {
      method,
      headers,
      body: method === 'GET' || method === 'HEAD' ? undefined : text,
      signal: gone.signal,
    });
    const parsedBody = parseJson(text);
    const response = (await isLegacyRequest(request, parsedBody))
      ? await legacy(request, parsedBody)
      : await modern.fetch(request, { parsedBody });
    res.writeHead(response.status, Object.fromEntries(response.headers));
    if (!response.body) return void res.end();
    // pipeline, not pipe: a client that goes away cancels the stream, and with it the request it was answering.
    await pipeline(Readable.fromWeb(response.body as never), res).catch(() => undefined);
  };
  const server = createServer((req, res) => {
    handle(req, res).catch((error: Error) => (res.headersSent ? res.destroy() : refuse(res, 500, error.message)));
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, host, resolve));
  server.on('close', () => void modern.close());
  return server;
}
