/** `list()` of every list endpoint in the table: parameters checked before any page is fetched, each page read from its envelope. */
import { ownFields } from '../core/readable.js';
import { ResponseValidationError, type Issue } from '../core/errors.js';
import type { QueryValue } from '../core/query.js';
import {
  array,
  checkInput,
  looseObject,
  nonEmptyString,
  optional,
  positiveInt,
  safeParse,
  strictObject,
  toIssues,
  type Schema,
} from '../core/schema.js';
import { readEnvelope, type PageParams } from '../service/envelope.js';
import { ENDPOINTS, type Endpoint } from './endpoints.js';
import type { MODELS } from './models.js';
import { Page, type ListWalk } from './page.js';
import { PagePromise, type ListOptions } from './page-promise.js';
import type { HttpCore } from '../core/http.js';
import type { ListName, ModelOf, Table } from './resource.js';

type Query = Record<string, QueryValue>;

// Built on a list's first use, once: building a zod schema costs more than validating a page.
const schemas = new Map<ListName, { params: Schema; options: Schema<ListOptions>; items: Schema }>();

function paramsSchema({ filters = [] }: NonNullable<Endpoint['list']>) {
  const shape = Object.fromEntries(filters.map((filter) => [filter, optional(nonEmptyString())]));
  return strictObject({ page: optional(positiveInt()), limit: optional(positiveInt()), ...shape });
}

function schemasOf(name: ListName, item: () => Schema, list: NonNullable<Endpoint['list']>) {
  let found = schemas.get(name);
  if (!found) {
    // The call's own options are the core's to check.
    found = { params: paramsSchema(list), options: looseObject({ maxPages: optional(positiveInt()) }), items: array(item()) };
    schemas.set(name, found);
  }
  return found;
}

/** What a list takes (`page`, `limit` and its filters), the schema its `list()` checks them with. */
export function listParamsSchema(name: ListName): Schema {
  return paramsSchema((ENDPOINTS[name] as Endpoint).list!);
}

/**
 * Lists the endpoint `name` of the table, whose items are `item`'s (the model the table names, as in `send`). Its
 * path (`/orders`) also names the list in messages and is an items key.
 */
export function list<K extends ListName>(
  core: HttpCore,
  name: K,
  item: (typeof MODELS)[Table[K]['list']['item']],
  params: PageParams,
  listOptions: ListOptions | undefined,
): PagePromise<ModelOf<Table[K]['list']['item']>> {
  const { path, list } = ENDPOINTS[name] as Endpoint;
  const plural = path.slice(1);
  const what = `list of ${plural}`;
  const invalid = (body: unknown, issues: Issue[]) => new ResponseValidationError({ body, issues, method: 'GET', url: path, what });
  return new PagePromise<unknown>(async (raw) => {
    const checks = schemasOf(name, item as () => Schema, list!);
    // The copy is checked and sent, so every page sends exactly what was checked (a getter is read once).
    // Read first, so that params that cannot be read (a revoked Proxy) are a ValidationError, not `isArray`'s TypeError.
    const copy = ownFields(params, `input to ${name}`);
    const query = (Array.isArray(params) ? params : copy) as Query;
    checkInput(checks.params, query, `input to ${name}`);
    // Most lists pass no options: nothing to parse, as for a call's own options.
    const { maxPages, ...options } = listOptions === undefined ? {} : checkInput(checks.options, listOptions, `options of ${name}`);
    if (raw) return core.request<Page<unknown>>({ ...options, method: 'GET', path, query }, true);
    const walk: ListWalk<unknown> = {
      maxPages,
      signal: options.signal,
      numbers: new Map(),
      contents: new Map(),
      warn: (message) => core.log.log('warn', `${what}: ${message}; the walk ends there`),
      fetch: async (requested, position) => {
        const pageQuery = { ...query, page: requested };
        // Read inside the core, so that an error about the body carries it with the call's secrets removed.
        const read = (body: unknown) => {
          const envelope = readEnvelope(body, plural, pageQuery as PageParams);
          if (!envelope) {
            throw invalid(body, [{ path: [], message: `has no array under data, items, results or ${plural}`, code: 'invalid_envelope' }]);
          }
          // Checked, then used as received (the very objects in `body`): the item schemas transform nothing.
          const result = core.settings.validateResponses ? safeParse(checks.items, envelope.items) : undefined;
          if (result && !result.success) throw invalid(body, toIssues(result.error, envelope.itemsPath));
          return { items: envelope.items, info: envelope.info, body };
        };
        const { data, response } = await core.request({
          ...options,
          method: 'GET',
          path,
          query: pageQuery,
          response: { name: what, read },
        });
        return new Page({ ...data, response, requested }, walk, position);
      },
    };
    const first = await walk.fetch(query['page'] as number | undefined, 0);
    return { data: first, response: first.response };
  }) as never;
}
