import { Client } from 'workflow-automation-sdk';

// A browser has no environment variables: pass the options. The key is a secret; hand a browser one only
// when the user may hold it (their own key, issued by your backend), never your server's key.
async function keyFromYourBackend(): Promise<string> {
  const response = await fetch('/api/wfa-key', { credentials: 'same-origin' });
  return response.text();
}

const client = new Client({ baseUrl: 'https://automation.example.com', apiKey: await keyFromYourBackend() });

const page = await client.workflows.list({ limit: 10 });
document.querySelector('#count')!.textContent = String(page.info.total ?? page.items.length);
