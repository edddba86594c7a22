import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { Client, InternalServerError, TimeoutError } from '../../src/index.js';
import { otelHooks } from '../../src/otel/index.js';
import { settle, useFakeClock } from '../helpers/clock.js';
import { API_KEY, BASE_URL as BASE, useService } from '../helpers/service.js';

const server = useService();
useFakeClock();

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const tracer = provider.getTracer('test');
beforeEach(() => exporter.reset());

const workflow = { id: 'wf_1', name: 'n', platform: 'p', status: 'building', created_at: 'now' };
const client = (apiPrefix = '/v1') => new Client({ baseUrl: BASE, apiKey: API_KEY, apiPrefix, hooks: otelHooks({ tracer }) });
const spans = () => exporter.getFinishedSpans();
const childrenOf = (parent: ReadableSpan) => spans().filter((s) => s.parentSpanContext?.spanId === parent.spanContext().spanId);

describe('otelHooks: calls', () => {
  it('a success after two retries: one call span, three attempt spans under it, resend counts', async () => {
    let n = 0;
    server.use(
      http.get(`${BASE}/v1/workflows/wf_1`, () => (++n < 3 ? new HttpResponse(null, { status: 503 }) : HttpResponse.json(workflow))),
    );
    const settled = await settle(client().workflows.get('wf_1'));
    expect(settled.ok).toBe(true);
    const call = spans().find((s) => s.kind === SpanKind.INTERNAL)!;
    expect(call.name).toBe('GET /workflows/{id}');
    expect(call.attributes).toMatchObject({
      'http.request.method': 'GET',
      'http.route': '/workflows/{id}',
      'url.full': `${BASE}/v1/workflows/wf_1`,
      'server.address': 'wfa.test',
      'http.response.status_code': 200,
      'http.request.resend_count': 2,
    });
    expect(call.status.code).not.toBe(SpanStatusCode.ERROR);
    expect(call.events.map((e) => e.name)).toEqual(['retry', 'retry']);
    const attempts = childrenOf(call);
    expect(attempts).toHaveLength(3);
    expect(attempts.every((a) => a.kind === SpanKind.CLIENT)).toBe(true);
    expect(attempts.map((a) => a.attributes['http.response.status_code'])).toEqual([503, 503, 200]);
    expect(attempts.map((a) => a.attributes['http.request.resend_count'])).toEqual([undefined, 1, 2]);
    expect(attempts.map((a) => a.status.code)).toEqual([SpanStatusCode.ERROR, SpanStatusCode.ERROR, SpanStatusCode.UNSET]);
    expect(attempts[0]!.attributes['error.type']).toBe('503');
  });

  it('the /v1 fallback: two attempts with their own URLs', async () => {
    server.use(http.get(`${BASE}/v1/workflows/wf_1`, () => HttpResponse.json(workflow)));
    await settle(client('auto').workflows.get('wf_1'));
    const call = spans().find((s) => s.kind === SpanKind.INTERNAL)!;
    expect(childrenOf(call).map((a) => [a.attributes['url.full'], a.attributes['http.response.status_code']])).toEqual([
      [`${BASE}/api/v1/workflows/wf_1`, 404],
      [`${BASE}/v1/workflows/wf_1`, 200],
    ]);
  });

  it('a failed call: error status and error.type on the call and its last attempt', async () => {
    server.use(http.get(`${BASE}/v1/workflows/wf_1`, () => new HttpResponse(null, { status: 503 })));
    const settled = await settle(client().workflows.get('wf_1', { maxRetries: 1 }));
    expect((settled as { error: unknown }).error).toBeInstanceOf(InternalServerError);
    const call = spans().find((s) => s.kind === SpanKind.INTERNAL)!;
    expect(call.status.code).toBe(SpanStatusCode.ERROR);
    expect(call.attributes['error.type']).toBe('503');
    expect(call.attributes['http.request.resend_count']).toBe(1);
    expect(childrenOf(call).length).toBeGreaterThan(0);
    // Every span ended: none left open.
    expect(spans().every((s) => s.ended)).toBe(true);
  });

  it('a call that times out: error.type is the error class', async () => {
    server.use(http.get(`${BASE}/v1/workflows/wf_1`, () => new Promise<Response>(() => undefined)));
    const settled = await settle(client().workflows.get('wf_1', { deadlineMs: 1_000 }));
    expect((settled as { error: unknown }).error).toBeInstanceOf(TimeoutError);
    const call = spans().find((s) => s.kind === SpanKind.INTERNAL)!;
    expect(call.attributes['error.type']).toBe('TimeoutError');
    expect(childrenOf(call).map((a) => a.attributes['error.type'])).toEqual(['TimeoutError']);
  });

  it('with no propagator registered, no trace header is added and nothing breaks', async () => {
    server.use(http.get(`${BASE}/v1/workflows/wf_1`, () => HttpResponse.json(workflow)));
    await settle(client().workflows.get('wf_1'));
    // No propagator is registered globally here: nothing is added, and nothing breaks.
    expect(server.requests[0]!.headers['traceparent']).toBeUndefined();
  });
});

describe('otelHooks: build waits', () => {
  it('one span per wait with an event per poll', async () => {
    let n = 0;
    const states = [
      { status: 'queued' },
      { status: 'building', progress: 50 },
      { status: 'completed', download_url: 'https://cdn.test/a.zip' },
    ];
    server.use(http.get(`${BASE}/v1/builds/bld_1`, () => HttpResponse.json({ id: 'bld_1', ...states[Math.min(n++, 2)] })));
    const settled = await settle(client().builds.wait('bld_1', { intervalMs: 1_000 }));
    expect(settled.ok).toBe(true);
    const wait = spans().find((s) => s.name === 'wait for build')!;
    expect(wait.attributes).toMatchObject({ 'wfa.build.id': 'bld_1', 'wfa.wait.outcome': 'completed', 'wfa.wait.polls': 3 });
    expect(wait.events.map((e) => [e.name, e.attributes?.['wfa.build.status']])).toEqual([
      ['poll', 'queued'],
      ['poll', 'building'],
      ['poll', 'completed'],
    ]);
    // Each poll is a traced call too.
    expect(spans().filter((s) => s.name === 'GET /builds/{id}')).toHaveLength(3);
  });
});

describe('otelHooks: the rate gate', () => {
  it("a 429 closing the client's gate, and its reopening, are events on the call's span", async () => {
    let n = 0;
    server.use(
      http.get(`${BASE}/v1/workflows/wf_1`, () =>
        ++n < 2 ? HttpResponse.json({ message: 'slow' }, { status: 429, headers: { 'retry-after': '2' } }) : HttpResponse.json(workflow),
      ),
    );
    const settled = await settle(client().workflows.get('wf_1'));
    expect(settled).toMatchObject({ ok: true, elapsedMs: 2_000 });
    const call = spans().find((s) => s.kind === SpanKind.INTERNAL)!;
    const events = call.events.map((e) => [e.name, e.attributes?.['wfa.rate_limit.wait_ms'], e.attributes?.['http.response.status_code']]);
    expect(events).toEqual([
      ['rate limit closed', 2000, 429],
      ['retry', undefined, undefined],
      ['rate limit open', 2000, undefined],
    ]);
  });
});

describe('otelHooks: the key', () => {
  it('is in no attribute, event or status of any span, in any encoding', async () => {
    server.use(
      http.get(`${BASE}/v1/workflows/wf_1`, () =>
        HttpResponse.json({ message: `bad ${API_KEY}` }, { status: 400, headers: { 'x-echo': API_KEY } }),
      ),
      http.get(`${BASE}/v1/builds/bld_1`, () => HttpResponse.json({ id: 'bld_1', status: 'failed', error: API_KEY })),
    );
    const c = client();
    await settle(c.workflows.get('wf_1'));
    await settle(c.request({ method: 'GET', path: '/workflows/wf_1', query: { k: API_KEY } }));
    await settle(c.builds.wait('bld_1'));
    expect(spans().length).toBeGreaterThan(4);
    const text = JSON.stringify(
      spans().map((s) => ({ name: s.name, attributes: s.attributes, events: s.events, status: s.status, links: s.links })),
    );
    const forms = [API_KEY, encodeURIComponent(API_KEY), Buffer.from(API_KEY).toString('base64'), Buffer.from(API_KEY).toString('hex')];
    for (const form of forms) expect(text).not.toContain(form);
    expect(text).toContain('/workflows/{id}');
  });
});
