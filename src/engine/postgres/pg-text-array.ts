/** A text[] comes back as its text ({a,b}) from the worker's parsers: read it, NULLs (expressions) as ''. */
export function parseTextArray(value: unknown): string[] {
  if (Array.isArray(value)) return value.map((v) => (v === null ? '' : String(v)));
  const text = String(value ?? '{}').replace(/^\{|\}$/g, '');
  if (text === '') return [];
  return text.split(',').map((v) => (v === 'NULL' ? '' : v.replace(/^"|"$/g, '').replace(/\\(.)/g, '$1')));
}
