import pc from 'picocolors';

/** Colors only when stdout is a terminal (never in pipes, files or CI logs). */
export const colors = pc.createColors(Boolean(process.stdout.isTTY) && !process.env.NO_COLOR);

/** dbt's `HH:MM:SS  ` prefix (UTC). */
export function stamp(): string {
  return `${new Date().toISOString().slice(11, 19)}  `;
}

export function line(text = ''): void {
  process.stdout.write(`${stamp()}${text}\n`);
}
