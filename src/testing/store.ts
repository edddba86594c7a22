/**
 * The state of one mock instance. Everything lives in the object `createStore` returns, never in module
 * variables, so two mocks never share a record and `reset()` is "make a new store".
 */

import type { Random } from './random.js';
import type { MockAction, MockOrder, MockTrigger } from './types.js';

/** A workflow as kept in memory; its `status` is not stored but read from its build. */
export interface StoredWorkflow {
  id: string;
  owner: string;
  name: string;
  platform: string;
  trigger: MockTrigger;
  actions: MockAction[];
  buildId: string;
  createdAt: number;
  updatedAt: number;
}

/**
 * A build as kept in memory. Its status, progress and logs are computed from the clock, so the mock needs no
 * timer to move a build along; a timer is only needed to send the webhook on time.
 */
export interface StoredBuild {
  id: string;
  owner: string;
  workflowId: string;
  platform: string;
  triggerType: string;
  /** `app.action` of each action, for the logs. */
  steps: string[];
  startedAt: number;
  durationMs: number;
  fails: boolean;
  /** Where `download_url` points. */
  origin: string;
  /** Set when the workflow was deleted while the build ran. */
  cancelledAt?: number;
  /** The build's end has been seen and its webhook (if any) sent; it is never sent twice. */
  settled: boolean;
}

/** A saved integration; `apiKey` is the full key, which no response ever contains. */
export interface StoredIntegration {
  id: string;
  owner: string;
  platform: string;
  apiKey: string;
  label: string | null;
  createdAt: number;
  updatedAt: number;
}

export interface StoredOrder {
  owner: string;
  order: MockOrder;
}

/** Everything one mock knows. Maps keep insertion order, which is creation order. */
export interface Store {
  /** email → password */
  passwords: Map<string, string>;
  /** API key → email */
  keys: Map<string, string>;
  workflows: Map<string, StoredWorkflow>;
  builds: Map<string, StoredBuild>;
  integrations: Map<string, StoredIntegration>;
  /** Newest first. */
  orders: StoredOrder[];
}

export interface StoreSeed {
  users: readonly { email: string; password: string }[];
  /** API key → email, valid from the start. */
  keys: ReadonlyMap<string, string>;
  ordersPerUser: number;
  random: Random;
  /** Seeded orders are dated back from this time, so that `reset()` restores the very same orders. */
  seededAt: number;
}

const ORDER_STATUSES: readonly MockOrder['status'][] = ['pending', 'paid', 'fulfilled', 'cancelled', 'refunded'];
const HOUR = 3_600_000;

/**
 * Creates the state of a fresh mock: the users, their initial keys, and their seeded orders (one per hour
 * back from `seededAt`, statuses in turn, so a status filter always has something to find).
 */
export function createStore(seed: StoreSeed): Store {
  const start = seed.seededAt;
  const orders: StoredOrder[] = [];
  for (const user of seed.users) {
    for (let i = 0; i < seed.ordersPerUser; i++) {
      orders.push({
        owner: user.email,
        order: {
          id: seed.random.id('ord_'),
          status: ORDER_STATUSES[i % ORDER_STATUSES.length] ?? 'pending',
          amount: Math.round((5 + seed.random.next() * 495) * 100) / 100,
          currency: 'USD',
          workflow_id: null,
          created_at: new Date(start - (i + 1) * HOUR).toISOString(),
        },
      });
    }
  }
  return {
    passwords: new Map(seed.users.map((user) => [user.email, user.password])),
    keys: new Map(seed.keys),
    workflows: new Map(),
    builds: new Map(),
    integrations: new Map(),
    orders,
  };
}
