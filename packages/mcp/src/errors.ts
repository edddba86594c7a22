/** A failed call as a tool error: the SDK error's name, status, code and request id, in its own (redacted) message. */
import { ApiError } from 'workflow-automation-sdk';

/** A tool result with `isError`: the model reads what went wrong, and can decide what to do. */
export function toolError(error: unknown, hide: (value: unknown) => unknown) {
  const name = error instanceof Error ? error.name : 'Error';
  const facts = {
    error: name,
    message: error instanceof Error ? error.message : String(error),
    ...(error instanceof ApiError && { status: error.status, code: error.code, request_id: error.requestId }),
  };
  return { isError: true, content: [{ type: 'text' as const, text: JSON.stringify(hide(facts)) }] };
}
