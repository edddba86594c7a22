import { parseWebhookEvent, safeParseWebhookEvent, WebhookParseError } from 'workflow-automation-sdk/webhooks';

declare const rawBody: string | Uint8Array; // the request body as your framework gives it

try {
  const event = parseWebhookEvent(rawBody); // a string, bytes (Uint8Array, Buffer), an ArrayBuffer or an object
  if (event.event === 'build.completed') {
    console.log(event.workflow_id, event.data.download_url); // both typed as strings
  } else {
    const kind: string = event.event; // a kind this SDK version does not know yet: kept, not rejected
    console.log('not handled yet:', kind, event.data);
  }
} catch (error) {
  if (error instanceof WebhookParseError) console.error(`Bad delivery at ${error.path}: ${error.message}`);
  else throw error;
}

// Without exceptions; { strict: true } also rejects kinds this SDK version does not know.
const result = safeParseWebhookEvent(rawBody, { strict: true });
if (result.success) console.log(result.event.data.download_url);
else console.error(result.error.message);
