/**
 * The packed package in a browser app, in Chromium: `npm run build && npm run test:consumer`.
 * The app (see app.ts) creates a workflow, waits for its build, lists with `for await`, catches a 404 and
 * parses a webhook, writing each answer into a table; these tests read the table, the console and the requests.
 */
import { expect, type Page, test } from '@playwright/test';
import { type ConsumerApp, startConsumerApp } from './app.js';

let app: ConsumerApp;
test.beforeAll(async () => {
  app = await startConsumerApp();
});
test.afterAll(async () => {
  await app?.close();
});

/** Loads the page and waits for the app to finish; returns its table, console errors and requests. */
async function load(page: Page, path: string) {
  const consoleErrors: string[] = [];
  const requests: string[] = [];
  page.on('console', (m) => {
    // The app's deliberate 404 is logged by Chromium as a failed resource: that one is expected.
    if (m.type() === 'error' && !/\/workflows\/wf_does_not_exist$/.test(m.location().url)) consoleErrors.push(m.text());
  });
  page.on('pageerror', (e) => consoleErrors.push(`pageerror: ${e.message}`));
  page.on('request', (r) => requests.push(r.url()));
  await page.goto(new URL(path, app.url).href);
  await expect(page.locator('body[data-status]')).toBeAttached({ timeout: 30_000 });
  const rows = await page
    .locator('tbody tr')
    .evaluateAll((trs) => trs.map((tr) => [tr.querySelector('th')!.textContent!, tr.querySelector('td')!.textContent!]));
  const table = Object.fromEntries(rows) as Record<string, string>;
  expect(await page.locator('body').getAttribute('data-status'), table['error']).toBe('done');
  return { table, consoleErrors, requests };
}

test('esbuild bundles the packed package for the browser, without Node built-ins', () => {
  expect(app.inputs.some((p) => p.startsWith('node_modules/workflow-automation-sdk/dist/'))).toBe(true);
  expect(
    app.inputs.filter((p) => /^(node:|<define|<inject)/.test(p) || !/^(node_modules\/workflow-automation-sdk\/|app\.js$)/.test(p)),
  ).toEqual([]);
});

test('the app runs in Chromium: create, waitForBuild, for await, 404, webhook', async ({ page }) => {
  const { table, consoleErrors, requests } = await load(page, '/');
  expect(table['create']).toMatch(/^wf_\S+ building$/);
  expect(table['get']).toBe('Notify on order');
  expect(table['waitForBuild']).toMatch(new RegExp(`^completed ${app.api}/`));
  expect(table['progress']).toMatch(/building.*→.*completed 100$/);
  expect(table['for await list']).toMatch(/^(Notify on order, )+(Second workflow(, )?)+$/);
  expect(table['404']).toBe('NotFoundError is=true instanceof=true status=404');
  expect(table['webhook']).toMatch(/^build\.completed wf_/);
  // No polyfills: the page has no process, Buffer or require, and the SDK never needed them.
  expect(table['globals']).toBe('process: undefined, Buffer: undefined, require: undefined');
  expect(consoleErrors).toEqual([]);
  // The page, its script, then the mock service: nothing else was contacted.
  expect(requests.filter((r) => !r.startsWith('http://127.0.0.1:'))).toEqual([]);
  await test.info().attach('page', { body: await page.screenshot({ fullPage: true }), contentType: 'image/png' });
});

test("under a strict CSP (script-src 'self', no eval) the app runs the same, with no violation", async ({ page }) => {
  const { table, consoleErrors } = await load(page, '/?csp');
  expect(table['create']).toMatch(/^wf_\S+ building$/);
  expect(table['waitForBuild']).toMatch(/^completed /);
  expect(table['404']).toBe('NotFoundError is=true instanceof=true status=404');
  // The SDK generates no code at run time: not one eval is tried.
  expect(table['csp violations']).toBe('0');
  expect(consoleErrors).toEqual([]);
});
