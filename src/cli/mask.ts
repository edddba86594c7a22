/**
 * How wfa (and the MCP server) show a record that may hold a credential: masked, never as received. A field is
 * a credential's by redaction's one rule (`isCredentialName`), and masked whatever the service put in it.
 */
import { credentialCopies, isCredentialName, redactText, usableSecrets } from '../core/redact.js';

/** The end of a key the service returned masked itself (`shpa…9XYZ`, `****9XYZ`): what follows its last mask character. */
const SHOWN_BY_SERVICE = /[…*•]([^…*•]{1,4})$/u;

/**
 * `shpat_…` → `****abcd`: enough to tell keys apart, never enough to use one. A short value hides entirely,
 * unless the service masked it already: then the (at most four) characters it left at the end are shown.
 */
export function mask(value: string): string {
  if (value.length >= 16) return `****${value.slice(-4)}`;
  const shown = SHOWN_BY_SERVICE.exec(value)?.[1];
  return shown === undefined ? '****' : `****${shown}`;
}

/**
 * A copy of a record with every string under a credential-named field masked, and every copy of those values
 * and of each `known` value (the key just sent) hidden elsewhere, property names included, in every form the SDK's
 * redaction knows (JSON, URL, base64, hex).
 */
export function masked(value: unknown, ...known: (string | undefined)[]): unknown {
  const secrets = usableSecrets([...known, ...credentialCopies(value)]);
  const hide = (text: string) => secrets.reduce((out, secret) => redactText(out, [secret], mask(secret)), text);
  const walk = (inner: unknown, inSecret: boolean, depth: number): unknown => {
    if (typeof inner === 'number') {
      // A number equal to a credential value (a numeric key echoed as a JSON number) is that value.
      const text = String(inner);
      return inSecret ? mask(text) : hide(text) === text ? inner : hide(text);
    }
    if (typeof inner === 'string') return inSecret ? mask(inner) : hide(inner);
    if (typeof inner !== 'object' || inner === null) return inner;
    if (depth > 64) return '****';
    if (Array.isArray(inner)) return inner.map((item) => walk(item, inSecret, depth + 1));
    return Object.fromEntries(
      Object.entries(inner).map(([name, item]) => [hide(name), walk(item, inSecret || isCredentialName(name), depth + 1)]),
    );
  };
  return walk(value, false, 0);
}
