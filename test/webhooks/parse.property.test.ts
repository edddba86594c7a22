import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { WebhookParseError, parseWebhookEvent, safeParseWebhookEvent } from '../../src/webhooks/index.js';

const numRuns = 500;

/** The contract under test: an event comes back, or a WebhookParseError is thrown, and nothing else. */
function returnsEventOrThrowsParseError(body: unknown, strict = false): void {
  let event: unknown;
  try {
    event = parseWebhookEvent(body, { strict });
  } catch (error) {
    expect(error).toBeInstanceOf(WebhookParseError);
    expect((error as WebhookParseError).message).not.toBe('');
    return;
  }
  expect(event).toMatchObject({ event: expect.any(String), workflow_id: expect.any(String), data: expect.any(Object) });
}

/** Envelopes close to valid, so that the generated inputs reach the deeper checks, not only "not JSON". */
const nearlyValid = fc.record(
  {
    event: fc.oneof(fc.constant('build.completed'), fc.string(), fc.jsonValue()),
    workflow_id: fc.oneof(fc.string(), fc.jsonValue()),
    data: fc.oneof(fc.record({ download_url: fc.oneof(fc.webUrl(), fc.string(), fc.jsonValue()) }, { requiredKeys: [] }), fc.jsonValue()),
  },
  { requiredKeys: [] },
);

describe('parseWebhookEvent never throws anything but WebhookParseError', () => {
  it('for arbitrary strings', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => returnsEventOrThrowsParseError(text)),
      { numRuns },
    );
  });

  it('for arbitrary bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 512 }), (bytes) => returnsEventOrThrowsParseError(bytes)),
      { numRuns },
    );
  });

  it('for arbitrary JSON values, parsed', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => returnsEventOrThrowsParseError(value)),
      { numRuns },
    );
  });

  it('for arbitrary JSON values, as text and as bytes', () => {
    fc.assert(
      fc.property(fc.json(), (text) => {
        returnsEventOrThrowsParseError(text);
        returnsEventOrThrowsParseError(new TextEncoder().encode(text));
      }),
      { numRuns },
    );
  });

  it('for nearly valid envelopes, in both modes', () => {
    fc.assert(
      fc.property(nearlyValid, fc.boolean(), (value, strict) => returnsEventOrThrowsParseError(JSON.stringify(value), strict)),
      { numRuns },
    );
  });
});

describe('parseWebhookEvent on generated valid events', () => {
  it('returns every valid build.completed event unchanged, extra fields included', () => {
    const validEvent = fc.record({
      event: fc.constant('build.completed'),
      workflow_id: fc.string(),
      data: fc.record({ download_url: fc.webUrl({ validSchemes: ['http', 'https'] }) }),
      extra: fc.jsonValue(),
    });
    fc.assert(
      fc.property(validEvent, (value) => {
        expect(parseWebhookEvent(JSON.stringify(value))).toEqual(JSON.parse(JSON.stringify(value)));
      }),
      { numRuns },
    );
  });

  it('agrees with safeParseWebhookEvent on every input', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.json(),
          nearlyValid.map((v) => JSON.stringify(v)),
        ),
        (text) => {
          const result = safeParseWebhookEvent(text);
          if (result.success) expect(parseWebhookEvent(text)).toEqual(result.event);
          else expect(() => parseWebhookEvent(text)).toThrow(result.error.message);
        },
      ),
      { numRuns },
    );
  });
});
