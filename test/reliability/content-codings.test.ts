/**
 * A response's `Content-Encoding` list is the server's to write, and may be anything: more than five codings
 * are refused on both transports (each one a decoder), and on the client's own transport no such response,
 * however it ends, can kill the process. This file runs once per transport; the crash check runs in a child.
 */
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, ConnectionError } from '../../src/index.js';
import { runChildUntilExit } from '../helpers/child-exit.js';
import { workflowBody } from './fault-server.js';

const TRANSPORT = process.env['WFA_TEST_TRANSPORT'] === 'fetch' ? 'fetch' : 'node:http';
const SDK = fileURLToPath(new URL('../../src/index.ts', import.meta.url));
const JSON_BODY = Buffer.from(JSON.stringify(workflowBody()));

let server: Server;
let url: string;
let answer: Buffer = Buffer.alloc(0);
const sockets = new Set<Socket>();

beforeAll(async () => {
  server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    socket.on('data', () => socket.write(answer));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** `layers` real gzip layers, each listed in `Content-Encoding`. */
function gzipped(layers: number): Buffer {
  let body = JSON_BODY;
  for (let i = 0; i < layers; i++) body = gzipSync(body);
  const head = `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-encoding: ${Array(layers).fill('gzip').join(', ')}\r\ncontent-length: ${body.length}\r\n\r\n`;
  return Buffer.concat([Buffer.from(head), body]);
}

const client = () => new Client({ baseUrl: url, apiKey: 'wfa_live_codings_Hx3q', apiPrefix: '/v1', maxRetries: 0, timeoutMs: 20_000 });

describe(`Content-Encoding lists, on ${TRANSPORT}`, () => {
  it('five gzip layers, each listed: decoded, the workflow read', async () => {
    answer = gzipped(5);
    expect((await client().workflows.get('wf_1')).id).toBe(workflowBody().id);
  });

  it('six layers, each listed: ConnectionError, as undici refuses more than five codings', async () => {
    answer = gzipped(6);
    const error = await client()
      .workflows.get('wf_1')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
  });

  it('3,000 codings listed: ConnectionError, no decoder made for each', async () => {
    const head = `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-encoding: ${Array(3000).fill('br').join(',')}\r\ncontent-length: 4\r\n\r\nxxxx`;
    answer = Buffer.from(head);
    const error = await client()
      .workflows.get('wf_1')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
  });
});

const CHILD = `
import net from 'node:net';
import { Client } from ${JSON.stringify(SDK)};
const body = Buffer.alloc(Number(process.argv[1]), 120);
const server = net.createServer((socket) => {
  socket.on('error', () => undefined);
  socket.once('data', () => {
    socket.write('HTTP/1.1 200 OK\\r\\ncontent-type: application/json\\r\\ncontent-encoding: gzip,gzip,gzip,gzip,gzip,gzip\\r\\ncontent-length: ' + body.length + '\\r\\n\\r\\n');
    socket.write(body);
    setTimeout(() => socket.destroy(), 300);
  });
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const options = { baseUrl: 'http://127.0.0.1:' + server.address().port, apiKey: 'wfa_test_codings', apiPrefix: '/v1', maxRetries: 0 };
const client = new Client(options);
const name = await client.workflows.get('wf_1').then(() => 'ok', (error) => error.name);
await new Promise((resolve) => setTimeout(resolve, 800));
server.close();
console.log(name + ' and alive');
`;

// The client's own transport (node:http): with a `fetch` option, Node 20's bundled undici lets this response's
// socket error go unhandled, which no caller of fetch can catch (docs/errors-and-retries.md).
describe('a process whose call got six codings and a body the server then cut, on the default transport', () => {
  it.each([20_000, 63_000])('a %i-byte body: the call fails with ConnectionError, and the process lives on', async (size) => {
    const run = await runChildUntilExit(['--import', 'tsx', '--input-type=module', '-e', CHILD, String(size)], 5_000);
    expect(run.report, run.stderr).toBe('ConnectionError and alive');
    expect(run.code, run.stderr).toBe(0);
  });
});
