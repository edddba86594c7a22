/**
 * `deadlineMs` against the fault server, with random faults and policies: no call ends later than its deadline
 * plus 50 ms (measured against a timer armed for the deadline, so a busy event loop delays both alike), and no
 * attempt starts after the deadline.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, TimeoutError, WfaError } from '../../src/index.js';
import { faults, startFaultServer, type Fault, type FaultServer } from './fault-server.js';

let server: FaultServer;
beforeAll(async () => {
  server = await startFaultServer();
});
afterAll(async () => {
  await server.close();
});

const fault: fc.Arbitrary<() => Fault> = fc.oneof(
  fc.constant(() => faults.ok()),
  fc.constant(() => faults.stall()),
  fc.constant(() => faults.stallAfterHeaders()),
  fc.constant(() => faults.reset()),
  fc.constant(() => faults.htmlBadGateway()),
  fc.integer({ min: 0, max: 2 }).map((s) => () => faults.status(503, { error: 'busy' }, { 'retry-after': String(s) })),
  fc.constant(() => faults.rateLimited()),
  fc.constant(() => faults.redirect(307, '/v1/workflows/wf_1')),
);

describe('deadlineMs under faults', () => {
  it('ends every call by its deadline + 50 ms, and starts no attempt after it', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fault, { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 100, max: 1_200 }),
        fc.integer({ min: 50, max: 2_000 }),
        fc.integer({ min: 0, max: 6 }),
        fc.integer({ min: 10, max: 400 }),
        fc.boolean(),
        async (plan, deadlineMs, timeoutMs, maxRetries, baseDelayMs, post) => {
          server.reset();
          server.plan(...plan.map((make) => make())).otherwise(faults.stall());
          const attempts: number[] = [];
          const client = new Client({
            baseUrl: server.url,
            apiKey: 'wfa_live_property_deadline_1',
            apiPrefix: '/v1',
            timeoutMs,
            maxRetries,
            retry: { baseDelayMs, maxDelayMs: 4 * baseDelayMs, shouldRetry: () => (post ? true : undefined) },
            fetch: (input, init) => {
              attempts.push(performance.now());
              return fetch(input, init);
            },
          });
          const started = performance.now();
          // Fires at the deadline, or as late as a blocked event loop makes it: the SDK's own timer is no earlier.
          const timerFired = new Promise<number>((resolve) => setTimeout(() => resolve(performance.now()), deadlineMs));
          const call = post
            ? client.workflows.create({ name: 'n', platform: 'p', trigger: { type: 'webhook' }, actions: [] }, { deadlineMs })
            : client.workflows.get('wf_1', { deadlineMs });
          const outcome = await call.then(
            () => undefined,
            (e: unknown) => e,
          );
          const ended = performance.now();
          const fired = await timerFired;
          // Whatever happened, the call ends in the SDK's own errors.
          expect(outcome === undefined || WfaError.is(outcome)).toBe(true);
          if (TimeoutError.is(outcome) && outcome.reason === 'deadline') expect(outcome.timeoutMs).toBe(deadlineMs);
          const bound = Math.max(started + deadlineMs, fired) + 50;
          expect(ended).toBeLessThanOrEqual(bound);
          // 1 ms: the SDK starts its clock a microtask after `started`.
          for (const at of attempts) expect(at).toBeLessThanOrEqual(started + deadlineMs + 1);
        },
      ),
      { numRuns: 25 },
    );
  }, 120_000);
});
