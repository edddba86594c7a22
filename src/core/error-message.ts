/**
 * The message of an `ApiError`: read from the error body wherever the service put it, else named after the
 * status. The body is the service's own words; the SDK only finds them.
 */

/**
 * Names for the statuses that have a class of their own, 408 (retried) and the gateway errors, used when the
 * body gives no message. Any other status is an `Internal Server Error` (5xx) or an `HTTP Error`: the message
 * starts with the number anyway, and every name listed here is paid for in each browser bundle.
 */
const statusTexts: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  408: 'Request Timeout',
  409: 'Conflict',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

export function pathOf(url: string): string {
  try {
    const u = new URL(url);
    return u.pathname + u.search;
  } catch {
    return url;
  }
}

const MAX_MESSAGE = 300;

function clip(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > MAX_MESSAGE ? `${oneLine.slice(0, MAX_MESSAGE)}…` : oneLine;
}

/**
 * The text a body field holds: a string, the `msg` or `message` of an object (`error: { message }`), or for a
 * list (FastAPI's `detail: [{ msg, loc }]`) the texts of its entries joined. `''` when it holds none.
 */
function textOf(value: unknown): string {
  const entries = (Array.isArray(value) ? value : [value]) as (string | { msg?: unknown; message?: unknown } | null | undefined)[];
  return entries
    .map((entry) => (typeof entry === 'string' ? entry : (entry?.msg ?? entry?.message)))
    .filter((text) => typeof text === 'string' && text !== '')
    .join('; ');
}

/** Reads a human message from an error body, wherever the service put it. */
export function messageFromBody(status: number, body: unknown): string {
  const fallback = statusTexts[status] ?? (status >= 500 ? 'Internal Server Error' : 'HTTP Error');
  if (body === undefined || body === null || body === '') return `${fallback} (empty body)`;
  if (typeof body === 'string' && /^\s*</.test(body)) {
    // An error page from a proxy or load balancer: its title says enough, the markup would drown the message.
    const title = clip(/<title[^>]*>([^<]*)/i.exec(body)?.[1] ?? '');
    return `${fallback} (HTML page${title ? `: ${title}` : ''})`;
  }
  // A text body is the message itself. In an object, the first field that holds text wins (a field of a number
  // or a boolean body is `undefined`, which holds none).
  const fields = body as Record<string, unknown>;
  const candidates =
    typeof body === 'string' ? [body] : [fields.message, fields.error, fields.detail, fields.error_description, fields.title];
  for (const candidate of candidates) {
    const text = clip(textOf(candidate));
    if (text) return text;
  }
  return fallback;
}
