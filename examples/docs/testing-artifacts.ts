import { expect, test } from 'vitest';
import { Client } from 'workflow-automation-sdk';
import { artifactBytes, startMockServer } from 'workflow-automation-sdk/testing';

test('a download resumes after the connection resets mid-body', async () => {
  const mock = await startMockServer({
    buildDurationMs: 0,
    artifacts: {
      size: 1024 * 1024, // bytes; default 22 (an empty ZIP archive)
      resetAfterBytes: 300_000, // the socket is destroyed after this many body bytes...
      resets: 1, // ...for this many responses (default: all)
      expiresAfterMs: 60_000, // URLs carry expires/signature, and answer 403 once past it
      ranges: true, // the default: Accept-Ranges, ETag, 206 to Range (If-Range checked)
    },
  });
  try {
    const client = new Client({ baseUrl: mock.url, apiKey: mock.apiKey });
    const workflow = await client.workflows.create({
      name: 'x',
      platform: 'zapier',
      trigger: { type: 'webhook' },
      actions: [{ app: 'slack', action: 'send_message' }],
    });
    const stream = await client.builds.download(await client.waitForBuild(workflow));
    const received = new Uint8Array(await new Response(stream).arrayBuffer());
    expect(Buffer.compare(received, artifactBytes(1024 * 1024))).toBe(0);
    const sent = mock.service.downloadRequests(); // what the download host received
    expect(sent[1]?.headers.range).toMatch(/^bytes=\d+-$/);
    expect(sent.every((request) => !('x-api-key' in request.headers))).toBe(true);
  } finally {
    await mock.close();
  }
});
