import { Client, type Order, type Page } from 'workflow-automation-sdk';

const client = new Client();

// Every item of every page, fetched lazily, one page in memory at a time.
for await (const order of client.orders.list({ status: 'paid', limit: 100 })) {
  console.log(order.id, order.amount, order.currency);
}

// One page: await the list.
const page = await client.orders.list({ limit: 50 });
console.log(page.items.length, page.info); // { page, limit, total, totalPages, hasMore, nextPage }

// Page by page, for a "load more" button.
let current: Page<Order> = await client.orders.list({ limit: 20 });
const shown = [...current.items];
while (current.hasNextPage() && shown.length < 60) {
  current = await current.getNextPage();
  shown.push(...current.items);
}

// Stop early: the helpers fetch no page they do not need, and a `break` fetches nothing more.
const recent: Order[] = await client.orders.list({ status: 'paid' }).toArray({ limit: 250 }); // limit required
for await (const order of client.orders.list().take(10)) console.log(order.id); // at most 10 items
for await (const p of client.orders.list({ limit: 100 }).pages()) console.log(p.info.page, p.items.length);
console.log(recent.length);
