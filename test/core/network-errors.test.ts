import { describe, expect, it } from 'vitest';
import { failedBeforeSending, networkErrorCodes } from '../../src/core/network-errors.js';

describe('failedBeforeSending', () => {
  const err = (cause: unknown) => new TypeError('fetch failed', { cause });
  it('is true only when every code says the request never left', () => {
    expect(failedBeforeSending(err({ code: 'ECONNREFUSED' }))).toBe(true);
    expect(failedBeforeSending(err({ code: 'ENOTFOUND' }))).toBe(true);
    expect(failedBeforeSending(err(new AggregateError([{ code: 'ECONNREFUSED' }, { code: 'ENETUNREACH' }])))).toBe(true);
    expect(failedBeforeSending(err({ code: 'ECONNRESET' }))).toBe(false);
    expect(failedBeforeSending(err({ code: 'UND_ERR_SOCKET' }))).toBe(false);
    expect(failedBeforeSending(new TypeError('Failed to fetch'))).toBe(false);
  });

  it('networkErrorCodes walks causes and aggregate errors', () => {
    expect(networkErrorCodes(err(new AggregateError([{ code: 'A' }, { code: 'B' }])))).toEqual(['A', 'B']);
  });
});
