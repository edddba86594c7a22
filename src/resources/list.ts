/**
 * The list factory: one `list()` per resource, with its parameters checked before any page is fetched, each
 * page read from its envelope and its items checked.
 */
import type { $ZodShape } from 'zod/v4/core';
import { ResponseValidationError, ValidationError } from '../core/errors.js';
import type { HttpCore } from '../core/http.js';
import type { QueryValue } from '../core/query.js';
import { array, checkInput, optional, positiveInt, safeParse, strictObject, toIssues, type Schema } from '../core/schema.js';
import { readEnvelope, type PageParams } from '../service/envelope.js';
import { Page, SeenPages, type ListWalk, type PageContent } from './page.js';
import { PagePromise, type ListOptions } from './page-promise.js';

/**
 * Called once per list endpoint (`resource.ts` keeps the result): building a zod schema costs more than
 * validating a page. `plural` is the path, the message name and an items key.
 */
export function listEndpoint<T>(
  plural: string,
  item: Schema<T>,
  filters: $ZodShape = {},
): (core: HttpCore, params: PageParams, options: ListOptions | undefined) => PagePromise<T> {
  const path = `/${plural}`;
  const what = `list of ${plural}`;
  const paramsSchema = strictObject({ page: optional(positiveInt()), limit: optional(positiveInt()), ...filters });
  const itemsSchema = array(item);
  // The copy is checked and sent, so every page sends exactly what was checked (a getter is read once).
  const prepare = (params: PageParams, listOptions: ListOptions | undefined) => {
    const query = (typeof params === 'object' && params !== null && !Array.isArray(params) ? { ...params } : params) as Record<
      string,
      QueryValue
    >;
    checkInput(paramsSchema, query, `input to ${plural}.list`);
    const { maxPages, ...options } = listOptions ?? {};
    if (maxPages !== undefined && !(Number.isInteger(maxPages) && maxPages >= 1)) {
      throw new ValidationError(`options of ${plural}.list`, [
        { path: ['maxPages'], message: 'must be a whole number >= 1', code: 'invalid_value' },
      ]);
    }
    return { query, options, maxPages };
  };
  return (core, params, listOptions) =>
    new PagePromise(async (raw) => {
      const { query, options, maxPages } = prepare(params, listOptions);
      if (raw) return core.request<Page<T>>({ ...options, method: 'GET', path, query }, true);
      const walk: ListWalk<T> = {
        maxPages,
        signal: options.signal,
        seen: new SeenPages(),
        warn: (message) => core.log.log('warn', `${what}: ${message}; the walk ends there`),
        fetch: (page, position) => fetchPage(page, position),
      };
      const fetchPage = async (requested: number | undefined, position: number): Promise<Page<T>> => {
        const pageQuery = { ...query, page: requested };
        // Read inside the core, so that an error about the body carries it with the call's secrets removed.
        const read = (body: unknown): Omit<PageContent<T>, 'response'> => {
          const envelope = readEnvelope(body, plural, pageQuery as PageParams);
          if (!envelope) {
            throw new ResponseValidationError({
              body,
              issues: [{ path: [], message: `has no array under data, items, results or ${plural}`, code: 'invalid_envelope' }],
              method: 'GET',
              url: path,
              what,
            });
          }
          const items = envelope.items as T[];
          // Checked, then used as received (the very objects in `body`): the item schemas transform nothing.
          const result = core.settings.validateResponses ? safeParse(itemsSchema, items) : undefined;
          if (result && !result.success) {
            throw new ResponseValidationError({ body, issues: toIssues(result.error, envelope.itemsPath), method: 'GET', url: path, what });
          }
          return { items, info: envelope.info, body, requested };
        };
        const { data, response } = await core.request({
          ...options,
          method: 'GET',
          path,
          query: pageQuery,
          response: { name: what, read },
        });
        return new Page({ ...data, response }, walk, position);
      };
      const first = await fetchPage(query['page'] as number | undefined, 0);
      return { data: first, response: first.response };
    });
}
