import {
  ApiError,
  AuthenticationError,
  Client,
  ConnectionError,
  NotFoundError,
  RateLimitError,
  TimeoutError,
  ValidationError,
  WfaError,
  type Workflow,
} from 'workflow-automation-sdk';

const client = new Client();

// A 404 that is an answer, not a failure.
export async function findWorkflow(id: string): Promise<Workflow | undefined> {
  try {
    return await client.workflows.get(id);
  } catch (error) {
    if (NotFoundError.is(error)) return undefined;
    throw error;
  }
}

// Every error the SDK throws extends WfaError; the static is() guards narrow `unknown` to the class.
try {
  await client.workflows.create({
    name: 'Nightly export',
    platform: 'make',
    trigger: { type: 'schedule' },
    actions: [{ app: 'google_sheets', action: 'append_row' }],
  });
} catch (error) {
  if (ValidationError.is(error)) {
    console.error(`Invalid ${error.field}:`, error.issues); // nothing was sent
  } else if (AuthenticationError.is(error)) {
    console.error('The API key was refused: check WFA_API_KEY');
  } else if (RateLimitError.is(error)) {
    console.error(`Rate limited; the service asked for ${error.retryAfterMs ?? '?'} ms`);
  } else if (ApiError.is(error)) {
    console.error(error.status, error.message, { requestId: error.requestId, body: error.body });
  } else if (TimeoutError.is(error)) {
    console.error(`No answer within ${error.timeoutMs} ms`); // a TimeoutError is also a ConnectionError
  } else if (ConnectionError.is(error)) {
    console.error('Service unreachable:', error.message);
  } else if (error instanceof WfaError) {
    console.error(error.name, error.message);
  } else {
    throw error;
  }
}
