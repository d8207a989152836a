/**
 * A value from the warehouse as it may be echoed in a message or a report
 * line: short. A raw row can hold anything (a 10 MB string, a blob, a
 * number where a date belongs); printing it whole would bury the message.
 */
const DEFAULT_MAX = 40;

export function previewValue(value: unknown, max = DEFAULT_MAX): string {
  if (value === null || value === undefined) return String(value);
  if (value instanceof Uint8Array) return `<blob of ${value.length} bytes>`;
  const text = typeof value === 'string' ? value : typeof value === 'object' ? safeJson(value) : String(value);
  if (text.length <= max) return text;
  return `${text.slice(0, max)}… (${text.length.toLocaleString('en-US')} chars)`;
}

function safeJson(value: object): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}
