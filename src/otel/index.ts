/**
 * `workflow-automation-sdk/otel`: OpenTelemetry spans built on the client's `hooks`: one per call with a child
 * per attempt, and one per build wait with an event per poll; the rate gate closing and opening is an event on
 * every call in progress. Attributes follow the HTTP client conventions.
 */
import { SpanKind, SpanStatusCode, context, propagation, trace, type Attributes, type Span, type Tracer } from '@opentelemetry/api';
import type { AfterResponseContext, BeforeRequestContext, ErrorContext, HookContext, Hooks, RateLimitEvent, WaitEvent } from '../index.js';

/**
 * What {@link otelHooks} takes.
 *
 * @example
 * ```ts
 * const options: OtelHooksOptions = { tracer: trace.getTracer('my-app'), hooks: { onError: (c) => console.warn(c.error.message) } };
 * ```
 */
export interface OtelHooksOptions {
  /** Default: `trace.getTracer('workflow-automation-sdk')` from the global provider. */
  tracer?: Tracer | undefined;
  /** Your own hooks, run after the tracing ones. */
  hooks?: Hooks | undefined;
}

interface CallSpans {
  call: Span;
  attempt: Span | undefined;
}

const at = (elapsedMs: number) => Date.now() - elapsedMs;

function httpAttributes(c: HookContext): Attributes {
  const attributes: Attributes = { 'http.request.method': c.method, 'http.route': c.route, 'url.template': c.route };
  if (URL.canParse(c.url)) {
    const url = new URL(c.url);
    attributes['url.full'] = c.url;
    attributes['server.address'] = url.hostname;
    attributes['server.port'] = Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
  }
  if (c.attempt > 1) attributes['http.request.resend_count'] = c.attempt - 1;
  return attributes;
}

function fail(span: Span, type: string, message?: string): void {
  span.setAttribute('error.type', type);
  span.setStatus({ code: SpanStatusCode.ERROR, message });
}

/**
 * Hooks that trace every call and build wait with OpenTelemetry. Spans carry the URL with secrets removed,
 * never the API key; the trace context is sent in the request headers when a propagator is registered.
 *
 * @example
 * ```ts
 * import { Client } from 'workflow-automation-sdk';
 * import { otelHooks } from 'workflow-automation-sdk/otel';
 *
 * const client = new Client({ apiKey, baseUrl, hooks: otelHooks() });
 * ```
 */
export function otelHooks(options: OtelHooksOptions = {}): Hooks {
  const tracer = options.tracer ?? trace.getTracer('workflow-automation-sdk');
  const own = options.hooks ?? {};
  const calls = new Map<number, CallSpans>();
  const waits = new Map<number, Span>();

  const spansOf = (c: HookContext): CallSpans => {
    let spans = calls.get(c.callId);
    if (!spans) {
      const call = tracer.startSpan(`${c.method} ${c.route}`, {
        kind: SpanKind.INTERNAL,
        startTime: at(c.elapsedMs),
        attributes: httpAttributes(c),
      });
      spans = { call, attempt: undefined };
      calls.set(c.callId, spans);
    }
    return spans;
  };
  const endAttempt = (spans: CallSpans, c: HookContext, status: number | undefined, error: string | undefined) => {
    const { attempt } = spans;
    if (!attempt) return;
    spans.attempt = undefined;
    if (status !== undefined) attempt.setAttribute('http.response.status_code', status);
    if (error !== undefined) fail(attempt, error);
    else if (status !== undefined && status >= 400) fail(attempt, String(status));
    attempt.end(at(c.elapsedMs));
  };
  const endCall = (c: HookContext, status: number | undefined, error: ErrorContext['error'] | undefined) => {
    const spans = spansOf(c);
    calls.delete(c.callId);
    endAttempt(spans, c, undefined, error?.name);
    const { call } = spans;
    call.setAttributes(httpAttributes(c));
    if (status !== undefined) call.setAttribute('http.response.status_code', status);
    // The conventions: the status when there was one, else the error's type.
    const errorStatus = (error as { status?: unknown } | undefined)?.status;
    if (error) fail(call, typeof errorStatus === 'number' ? String(errorStatus) : error.name, error.message);
    call.end(at(c.elapsedMs));
  };

  return {
    beforeRequest(c: BeforeRequestContext) {
      const spans = spansOf(c);
      const parent = trace.setSpan(context.active(), spans.call);
      const attempt = tracer.startSpan(
        c.method,
        { kind: SpanKind.CLIENT, startTime: at(c.elapsedMs), attributes: httpAttributes(c) },
        parent,
      );
      spans.attempt = attempt;
      propagation.inject(trace.setSpan(parent, attempt), c.headers, { set: (headers, name, value) => headers.set(name, value) });
      return own.beforeRequest?.(c);
    },
    afterResponse(c: AfterResponseContext) {
      const spans = calls.get(c.callId);
      if (spans) endAttempt(spans, c, c.status, undefined);
      return own.afterResponse?.(c);
    },
    beforeRetry(c) {
      const spans = calls.get(c.callId);
      if (spans) {
        endAttempt(spans, c, undefined, c.error);
        spans.call.addEvent('retry', { 'http.request.resend_count': c.attempt, 'wfa.retry.delay_ms': c.delayMs }, at(c.elapsedMs));
      }
      return own.beforeRetry?.(c);
    },
    onSuccess(c) {
      endCall(c, c.status, undefined);
      return own.onSuccess?.(c);
    },
    onError(c) {
      endCall(c, c.status, c.error);
      return own.onError?.(c);
    },
    onWait(e: WaitEvent) {
      if (e.type === 'start') {
        waits.set(e.waitId, tracer.startSpan('wait for build', { startTime: at(e.elapsedMs), attributes: { 'wfa.build.id': e.buildId } }));
      } else {
        const span = waits.get(e.waitId);
        const attributes: Attributes = { 'wfa.poll': e.poll };
        if (e.status !== undefined) attributes['wfa.build.status'] = e.status;
        if (e.error !== undefined) attributes['error.type'] = e.error;
        if (e.type === 'poll') span?.addEvent('poll', attributes, at(e.elapsedMs));
        else if (span) {
          waits.delete(e.waitId);
          span.setAttributes({ ...attributes, 'wfa.wait.outcome': e.outcome ?? 'stopped', 'wfa.wait.polls': e.poll });
          if (e.outcome === 'error' || e.outcome === 'failed') fail(span, e.error ?? 'BuildFailedError');
          span.end(at(e.elapsedMs));
        }
      }
      return own.onWait?.(e);
    },
    onRateLimit(e: RateLimitEvent) {
      // Every call in progress waits at the gate: each call's span says so.
      const attributes: Attributes = {
        'wfa.rate_limit.state': e.state,
        'wfa.rate_limit.wait_ms': e.waitMs,
        'wfa.rate_limit.waiting': e.waiting,
      };
      if (e.status !== undefined) attributes['http.response.status_code'] = e.status;
      if (e.ratePerSecond !== undefined) attributes['wfa.rate_limit.rate_per_second'] = e.ratePerSecond;
      for (const { call } of calls.values()) call.addEvent(`rate limit ${e.state}`, attributes);
      return own.onRateLimit?.(e);
    },
  };
}
