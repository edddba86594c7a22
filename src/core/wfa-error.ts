/**
 * `WfaError`, the base of every error the SDK throws. Its brand (the chain's class names under a `Symbol.for`
 * key) makes `instanceof` and `is()` recognise errors from another copy of the package (ESM and CJS at once).
 */

const KINDS = Symbol.for('workflow-automation-sdk.error-kinds');

type ErrorClass<T extends WfaError> = abstract new (...args: never[]) => T;

/** One problem found in an input or a response, as a plain object (no zod types leak into the public API). */
export interface Issue {
  /** Where the problem is, from the root of the checked value: `['actions', 0, 'app']`. */
  readonly path: readonly (string | number)[];
  /** What is wrong, in words. Never contains the offending value, which may be a secret. */
  readonly message: string;
  /** A machine-readable code (zod's issue code, for example `invalid_type` or `too_small`). */
  readonly code: string;
}

/** `actions[0].app`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out ? `.${String(key)}` : String(key);
  }
  return out || '(root)';
}

/** The base class of every error this SDK throws; check with `instanceof` or {@link WfaError.is}. */
export class WfaError extends Error {
  /** The class name, kept as data because minifiers rename classes. */
  static readonly kind: string = 'WfaError';

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    // Only the SDK's classes have an own `kind`: a user's subclass is named after the SDK class it extends.
    const kinds: string[] = [];
    for (let c: object = new.target; 'kind' in c; c = Object.getPrototypeOf(c)) {
      if (Object.hasOwn(c, 'kind')) kinds.push((c as typeof WfaError).kind);
    }
    Object.defineProperties(this, {
      [KINDS]: { value: kinds },
      // Not enumerable, like Error's own `name`, so spreading or logging an error does not repeat it.
      name: { value: kinds[0], writable: true, configurable: true },
    });
  }

  /**
   * What `JSON.stringify(error)` writes: `name` and `message` (an `Error`'s own are not enumerable), then the
   * error's fields (`status`, `code`, `body`, …), each as redacted as the error itself.
   */
  toJSON(): Record<string, unknown> {
    return { name: this.name, message: this.message, ...(this as object) };
  }

  /** True when `value` is an error of this class (or a subclass), from any copy of the package: `NotFoundError.is(e)`. */
  static is<T extends WfaError>(this: ErrorClass<T> & { kind: string }, value: unknown): value is T {
    // `?.` guards null and undefined; any other primitive simply has no brand.
    const kinds = (value as { [KINDS]?: unknown } | null | undefined)?.[KINDS];
    return Array.isArray(kinds) && kinds.includes(this.kind);
  }

  /** Makes `instanceof` work like {@link WfaError.is}, across copies of the package; a subclass of your own keeps ordinary `instanceof`. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    if (!Object.hasOwn(this, 'kind')) return super[Symbol.hasInstance](value);
    return (this as unknown as typeof WfaError).is(value);
  }
}
