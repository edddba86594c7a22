/** The message of an `ApiError`: the service's own words from the error body, else the status's name. */

// Only statuses with a class of their own, 408 and the gateway errors: each name costs browser bundle bytes.
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

/** A string, an object's `msg` or `message`, or a list's texts joined (FastAPI's `detail: [{ msg, loc }]`). */
function textOf(value: unknown): string {
  const entries = (Array.isArray(value) ? value : [value]) as (string | { msg?: unknown; message?: unknown } | null | undefined)[];
  return entries
    .map((entry) => (typeof entry === 'string' ? entry : (entry?.msg ?? entry?.message)))
    .filter((text) => typeof text === 'string' && text !== '')
    .join('; ');
}

export function messageFromBody(status: number, body: unknown): string {
  const fallback = statusTexts[status] ?? (status >= 500 ? 'Internal Server Error' : 'HTTP Error');
  if (body === undefined || body === null || body === '') return `${fallback} (empty body)`;
  if (typeof body === 'string' && /^\s*</.test(body)) {
    // An error page from a proxy or load balancer: its title says enough, the markup would drown the message.
    const title = clip(/<title[^>]*>([^<]*)/i.exec(body)?.[1] ?? '');
    return `${fallback} (HTML page${title ? `: ${title}` : ''})`;
  }
  // In an object, the first field that holds text wins.
  const fields = body as Record<string, unknown>;
  const candidates =
    typeof body === 'string' ? [body] : [fields.message, fields.error, fields.detail, fields.error_description, fields.title];
  for (const candidate of candidates) {
    const text = clip(textOf(candidate));
    if (text) return text;
  }
  return fallback;
}
