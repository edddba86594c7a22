/**
 * Lists: one page at a time, or every item with `for await`, the pages fetched as the loop reaches them.
 *
 *   WFA_API_KEY=<your key> WFA_BASE_URL=https://automation.example.com npx tsx examples/pagination.ts
 */
import { Client } from '../src/index.js';

// The key and address come from WFA_API_KEY and WFA_BASE_URL.
const client = new Client();

// One page: its items and what the service said about paging.
const first = await client.orders.list({ limit: 2 });
console.log(`Page ${first.info.page}: ${first.items.map((order) => order.id).join(', ')} (total ${first.info.total ?? 'unknown'})`);

// Walking pages by hand, for when each page is a unit of work (a batch insert, a progress report).
let page = first;
while (page.hasNextPage()) {
  page = await page.getNextPage();
  console.log(`Page ${page.info.page}: ${page.items.map((order) => order.id).join(', ')}`);
}

// Every item, however many pages: only one page is held in memory at a time.
let count = 0;
for await (const order of client.orders.list({ limit: 2, status: 'paid' })) {
  console.log(`paid order ${order.id}`);
  count += 1;
}
console.log(`${count} paid order(s)`);

// Stopping early stops fetching: no page after the one holding the tenth workflow is requested.
const recent: string[] = [];
for await (const workflow of client.workflows.list({ limit: 5 })) {
  recent.push(workflow.name);
  if (recent.length === 10) break;
}
console.log(`Workflows: ${recent.length === 0 ? '(none yet)' : recent.join(', ')}`);
