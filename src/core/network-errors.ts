/** What a network error's codes say: which codes it carries, and whether the request never left. */
/** Codes meaning the request was never sent, so even a POST is safe to send again. */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

/** Node puts codes on the cause chain, or on each error of an `AggregateError`; browsers give none. */
export function networkErrorCodes(error: unknown): string[] {
  const codes: string[] = [];
  let current: unknown = error;
  try {
    for (let depth = 0; depth < 4 && typeof current === 'object' && current !== null; depth++) {
      const { code, errors, cause } = current as { code?: unknown; errors?: unknown; cause?: unknown };
      if (typeof code === 'string') codes.push(code);
      if (Array.isArray(errors)) for (const inner of errors) codes.push(...networkErrorCodes(inner));
      current = cause;
    }
  } catch {
    // A custom fetch may throw a revoked Proxy or a throwing getter: the codes read before it stand.
  }
  return codes;
}

/** Whether a network error says the request never left (refused, not resolved), so even a POST may go again. */
export function failedBeforeSending(error: unknown): boolean {
  const codes = networkErrorCodes(error);
  return codes.length > 0 && codes.every((code) => NOT_SENT_CODES.has(code));
}
