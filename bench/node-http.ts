// The hand-written node:http floor of the bench: one request on a keep-alive agent, its body read as text
// and parsed, and nothing else (no timeout, no checks). Used by run.ts and by child.ts's raw walk.
import { type Agent, request } from 'node:http';

/** Sends `body` (JSON) or nothing to `url` and resolves with the parsed response body. */
export function jsonOverHttp(agent: Agent, url: string, init: { method: string; headers: Record<string, string>; body?: string }) {
  return new Promise<unknown>((resolve, reject) => {
    const headers = init.body ? { ...init.headers, 'content-type': 'application/json' } : init.headers;
    const req = request(url, { method: init.method, agent, headers });
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
      });
      res.on('end', () => resolve(JSON.parse(text)));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(init.body);
  });
}
