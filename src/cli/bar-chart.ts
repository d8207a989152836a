const EIGHTHS = ['', '▏', '▎', '▍', '▌', '▋', '▊', '▉'];

/** A horizontal bar of `value` out of `max` in `width` cells (eighth-cell precision; never empty for a non-zero value). */
export function bar(value: number, max: number, width = 40): string {
  if (value <= 0 || max <= 0) return '';
  const eighths = Math.max(1, Math.round((value / max) * width * 8));
  return '█'.repeat(Math.floor(eighths / 8)) + EIGHTHS[eighths % 8];
}

/** Right-align in `width` characters. */
export function pad(value: string | number, width: number): string {
  return String(value).padStart(width);
}
