/**
 * RFC 8785, the JSON Canonicalization Scheme the chain hashes are computed over (docs/canonical-form.md):
 * object keys sorted by UTF-16 code units, no whitespace, ECMAScript number and string forms. Plain
 * TypeScript with no Node module, so the keepsake's verify page runs the same code in a browser.
 */
export function jcs(value: unknown): string {
  if (value === null || typeof value === 'boolean') return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error('canonical JSON has no form for a non-finite number');
    return JSON.stringify(value);
  }
  if (typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(jcs).join(',')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    // Array.prototype.sort compares strings by UTF-16 code units, which is what RFC 8785 asks for
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${jcs(v)}`).join(',')}}`;
  }
  throw new Error(`canonical JSON has no form for ${typeof value}`);
}
