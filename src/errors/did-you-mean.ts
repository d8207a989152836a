import { closest, distance } from 'fastest-levenshtein';

/** The closest candidate to `name`, when it is close enough to be a plausible typo. */
export function didYouMean(name: string, candidates: readonly string[]): string | undefined {
  if (candidates.length === 0) return undefined;
  const best = closest(name, candidates as string[]);
  const limit = Math.max(2, Math.floor(name.length / 3));
  return distance(name, best) <= limit ? best : undefined;
}

/** " Did you mean 'x'?" or the empty string. */
export function didYouMeanSuffix(name: string, candidates: readonly string[]): string {
  const best = didYouMean(name, candidates);
  return best ? ` Did you mean '${best}'?` : '';
}
