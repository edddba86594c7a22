// In the browser (vitest browser mode, Storybook, a dev build): msw's service worker answers for the mock.
// Serve msw's worker script first: `npx msw init public/` copies mockServiceWorker.js into your public dir.
import { setupWorker } from 'msw/browser';
import { Client } from 'workflow-automation-sdk';
import { createMockHandlers } from 'workflow-automation-sdk/testing/msw';

const handlers = createMockHandlers({ baseUrl: 'https://api.example.test', buildDurationMs: 500 });
const worker = setupWorker(...handlers);
await worker.start({ onUnhandledRequest: 'bypass', quiet: true });

const client = new Client({ baseUrl: 'https://api.example.test', apiKey: handlers.service.apiKey });
const workflow = await client.workflows.create({
  name: 'Preview workflow',
  platform: 'zapier',
  trigger: { type: 'webhook' },
  actions: [],
});
console.log(await client.waitForBuild(workflow, { intervalMs: 100 }));
