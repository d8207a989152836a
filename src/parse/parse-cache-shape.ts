/**
 * What a parse cache file read from disk must look like before any of it is
 * used: a file cut short, overwritten with garbage or written by something
 * else is ignored (and rebuilt), never trusted into a capture. Checked field
 * by field, cheaply: a 10,000-model cache is read on every load.
 */
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isStringList = (v: unknown): boolean => Array.isArray(v) && v.every((s) => typeof s === 'string');

/** Why `value` is not a parse cache of this format, or undefined when it is one. */
export function parseCacheProblem(value: unknown, format: number): string | undefined {
  if (!isRecord(value)) return 'not a JSON object';
  if (value.format !== format) return undefined; // another version of the tool: not corrupt, just not ours
  if (typeof value.projectKey !== 'string') return "no 'projectKey'";
  if (!isRecord(value.models)) return "no 'models' object";
  for (const [name, entry] of Object.entries(value.models)) {
    if (!isRecord(entry) || typeof entry.key !== 'string' || !isCapture(entry.capture) || !isVarsRead(entry.vars)) return `model '${name}' has a malformed entry`;
  }
  if (value.macroNames !== undefined && !isStringList(value.macroNames)) return "'macroNames' is not a list of names";
  if (!isRecord(value.yaml)) return "no 'yaml' object";
  for (const entry of Object.values(value.yaml)) {
    if (!isRecord(entry) || typeof entry.json !== 'string' || !isRecord(entry.lines)) return "a 'yaml' entry is malformed";
  }
  return undefined;
}

function isCapture(v: unknown): boolean {
  return (
    isRecord(v) &&
    isStringList(v.refs) &&
    Array.isArray(v.sources) &&
    v.sources.every((s) => Array.isArray(s) && s.length === 2 && typeof s[0] === 'string' && typeof s[1] === 'string') &&
    isRecord(v.config) &&
    (v.vars === undefined || isStringList(v.vars))
  );
}

/** The values of the vars a capture read: absent, or name -> a JSON text (or '-', not set). */
function isVarsRead(v: unknown): boolean {
  return v === undefined || (isRecord(v) && Object.values(v).every((fingerprint) => typeof fingerprint === 'string'));
}
