/** The Python type name a template value stands for, for messages worded as Jinja would word them. */
export function pythonTypeName(value: unknown): string {
  if (value === null || value === undefined) return 'NoneType';
  if (typeof value === 'string') return 'str';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float';
  if (typeof value === 'function') return 'function';
  if (Array.isArray(value)) return 'list';
  const tag = (value as { [Symbol.toStringTag]?: unknown })[Symbol.toStringTag];
  if (typeof tag === 'string') return tag;
  const ctor = Object.getPrototypeOf(value)?.constructor?.name as string | undefined;
  return !ctor || ctor === 'Object' ? 'dict' : ctor;
}
