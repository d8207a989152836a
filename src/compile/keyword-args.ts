/** nunjucks passes keyword arguments as a trailing object marked `__keywords`. */
export function splitKeywordArgs(args: readonly unknown[]): { positional: unknown[]; keywords: Record<string, unknown> } {
  const last = args[args.length - 1];
  if (typeof last === 'object' && last !== null && (last as { __keywords?: boolean }).__keywords === true) {
    const { __keywords: _ignored, ...keywords } = last as Record<string, unknown>;
    return { positional: args.slice(0, -1), keywords };
  }
  return { positional: [...args], keywords: {} };
}
