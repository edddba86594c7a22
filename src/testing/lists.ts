/** One page of a list, in the envelope the mock was configured with. */

import { json } from './responses.js';
import type { MockListEnvelope, MockListPage } from './types.js';
import type { Paging } from './validate.js';

/**
 * Cuts `items` (already filtered and ordered) to the requested page and wraps it. Every list response also
 * carries `X-Total-Count`, the only paging fact a bare-array envelope has.
 */
export function listResponse(items: readonly unknown[], paging: Paging, envelope: MockListEnvelope): Response {
  const start = (paging.page - 1) * paging.limit;
  const slice = items.slice(start, start + paging.limit);
  const page: MockListPage = {
    items: slice,
    page: paging.page,
    limit: paging.limit,
    total: items.length,
    has_more: start + slice.length < items.length,
  };
  const facts = { page: page.page, limit: page.limit, total: page.total, has_more: page.has_more };
  let body: unknown;
  if (envelope === 'data') body = { data: slice, ...facts };
  else if (envelope === 'items') body = { items: slice, ...facts };
  else if (envelope === 'array') body = slice;
  else body = envelope(page);
  return json(200, body, { 'x-total-count': String(page.total) });
}
