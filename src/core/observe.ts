/** A callback that only observes (a logger, `onProgress`, the mock's `onWebhookDelivery`) never changes what it observes. */

/** Runs a callback that only observes (a logger, `onProgress`): its throw or rejection goes to `failed`, never to the caller. */
export function observe(callback: () => unknown, failed: (error: unknown) => void = () => undefined): void {
  try {
    Promise.resolve(callback()).catch(failed);
  } catch (error) {
    failed(error);
  }
}
