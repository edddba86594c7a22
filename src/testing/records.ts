/**
 * The records the mock service stores and its endpoints return. The spec leaves many shapes open ("not
 * shown"); the choices made here are the mock's, documented on each field.
 */

/**
 * A JSON value as the mock stores and returns it.
 *
 * @example
 * ```ts
 * const config: JsonValue = { channel: '#ops', mentions: ['@oncall'] };
 * ```
 */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/**
 * A JSON object.
 *
 * @example
 * ```ts
 * const config: JsonObject = { channel: '#ops' };
 * ```
 */
export type JsonObject = { [key: string]: JsonValue };

/**
 * A workflow's trigger as stored and returned. Fields other than `type` and `url` are kept as sent, since the
 * spec does not show the fields of other trigger types.
 *
 * @example
 * ```ts
 * const trigger: MockTrigger = { type: 'webhook', url: 'https://example.com/hook' };
 * ```
 */
export interface MockTrigger {
  /** The trigger kind, as sent: `webhook` in the spec's examples. */
  type: string;
  /** The URL sent with a `webhook` trigger; the mock checks it is http(s) but never calls it. */
  url?: string;
  [field: string]: JsonValue | undefined;
}

/**
 * One action of a workflow as stored and returned. Extra fields are kept as sent.
 *
 * @example
 * ```ts
 * const action: MockAction = { app: 'slack', action: 'send_message', config: { channel: '#ops' } };
 * ```
 */
export interface MockAction {
  /** The application: lower case letters, digits and underscores, as the spec requires. */
  app: string;
  /** The operation of that application, in the same form. */
  action: string;
  /** Free-form settings, kept as sent. */
  config?: JsonObject;
  [field: string]: JsonValue | undefined;
}

/**
 * A workflow as the mock returns it from every workflow endpoint.
 *
 * `status` follows the workflow's build: `building` while it runs, then `active` when it completed or
 * `failed` when it failed (the spec only shows `building`).
 *
 * @example
 * ```ts
 * const res = await fetch(`${url}/v1/workflows/wf_1`, { headers: { 'X-API-Key': apiKey } });
 * const workflow = (await res.json()) as MockWorkflow;
 * ```
 */
export interface MockWorkflow {
  /** `wf_` and 16 characters; the same for the same `seed`. */
  id: string;
  /** As sent. */
  name: string;
  /** As sent. */
  platform: string;
  /** As sent. */
  trigger: MockTrigger;
  /** As sent, in order. */
  actions: MockAction[];
  /** Follows the build (see above), so a test can wait on either. */
  status: 'building' | 'active' | 'failed';
  /** The build its creation started: always set, unlike some real deployments. */
  build_id: string;
  /** ISO 8601 on the service's clock, so fake timers move it. */
  created_at: string;
  /** ISO 8601: the last `PUT`, else `created_at`. */
  updated_at: string;
}

/**
 * A build as `GET /builds/{id}` returns it.
 *
 * - `building`: `progress` is an integer from 0 to 99, rising with elapsed time.
 * - `completed`: `progress` is 100 and `download_url` is set.
 * - `failed` (the `failBuilds` knob) and `cancelled` (its workflow was deleted while it ran): `error` is set.
 *
 * @example
 * ```ts
 * const build = (await (await fetch(`${url}/v1/builds/${id}`, { headers })).json()) as MockBuild;
 * if (build.status === 'completed') console.log(build.download_url);
 * ```
 */
export interface MockBuild {
  /** `bld_` and 16 characters: the workflow's `build_id`. */
  id: string;
  /** The workflow that started it. */
  workflow_id: string;
  /** Computed from the elapsed time on each request, so no timer is needed to move it. */
  status: 'building' | 'completed' | 'failed' | 'cancelled';
  /** 0 to 99 while `building`, 100 once `completed`; absent when it failed or was cancelled. */
  progress?: number;
  /** Set once `completed`: a `/downloads/{id}.zip` URL on the mock, which serves an empty ZIP archive. */
  download_url?: string;
  /** Why it failed or was cancelled. */
  error?: string;
  /** One line per step reached so far. */
  logs: string[];
  /** ISO 8601 on the service's clock. */
  created_at: string;
  /** ISO 8601, once it has ended. */
  finished_at?: string;
}

/**
 * An order the mock seeds for each user.
 *
 * @example
 * ```ts
 * const order: MockOrder = { id: 'ord_1', status: 'paid', amount: 42.5, currency: 'USD', workflow_id: null, created_at: '2024-01-01T00:00:00.000Z' };
 * ```
 */
export interface MockOrder {
  /** `ord_` and 16 characters. */
  id: string;
  /** The mock's own set of values (the spec lists none), so `orders.list({ status })` has something to filter. */
  status: 'pending' | 'paid' | 'fulfilled' | 'cancelled' | 'refunded';
  /** In major units of `currency`. */
  amount: number;
  /** An ISO 4217 code, such as `USD`. */
  currency: string;
  /** Always `null` for seeded orders: the spec does not show how orders and workflows relate. */
  workflow_id: string | null;
  /** ISO 8601 on the service's clock. */
  created_at: string;
}

/**
 * A saved integration as the mock returns it; the full key is stored but never sent back.
 *
 * @example
 * ```ts
 * const saved: MockIntegration = { id: 'int_1', platform: 'zapier', label: 'Prod', api_key: 'sk_l…1234', created_at: '…', updated_at: '…' };
 * ```
 */
export interface MockIntegration {
  /** `int_` and 16 characters. */
  id: string;
  /** As sent; saving again for the same platform updates this record. */
  platform: string;
  /** As sent; `null` when none was. */
  label: string | null;
  /** Masked (`sk_l…1234`), so a test can check that a client never needs the key back. */
  api_key: string;
  /** ISO 8601 on the service's clock. */
  created_at: string;
  /** ISO 8601: the last save. */
  updated_at: string;
}

/**
 * One page of a list, before it is wrapped in the configured envelope.
 *
 * @example
 * ```ts
 * const envelope: MockListEnvelope = (page: MockListPage) => ({ results: page.items, meta: { page: page.page } });
 * ```
 */
export interface MockListPage<T = unknown> {
  /** The records of this page. */
  items: T[];
  /** The page number, from 1. */
  page: number;
  /** The page size asked for: default 20, at most 100. */
  limit: number;
  /** Records in the whole list. */
  total: number;
  /** Whether a later page has records. */
  has_more: boolean;
}

/**
 * How list endpoints shape their body (the spec does not show it):
 *
 * - `'data'` (default): `{ data: [...], page, limit, total, has_more }`
 * - `'items'`: `{ items: [...], page, limit, total, has_more }`
 * - `'array'`: the bare array (paging facts only in the `X-Total-Count` header)
 * - a function: whatever it returns, for testing other envelopes
 *
 * @example
 * ```ts
 * createMockService({ listEnvelope: 'array' });
 * createMockService({ listEnvelope: (p) => ({ results: p.items, pagination: { page: p.page, total: p.total } }) });
 * ```
 */
export type MockListEnvelope = 'data' | 'items' | 'array' | ((page: MockListPage) => unknown);

/**
 * A user who can log in through `POST /v1/auth`.
 *
 * @example
 * ```ts
 * createMockService({ users: [{ email: 'ana@example.com', password: 'pw', apiKey: 'key_ana' }] });
 * ```
 */
export interface MockUser {
  /** What `POST /v1/auth` takes, with `password`. */
  email: string;
  /** Checked as is, by `POST /v1/auth`. */
  password: string;
  /** A key valid for this user from the start (and after `reset()`). Default: one generated key. */
  apiKey?: string | undefined;
}
