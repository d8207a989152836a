import { createInterface } from 'node:readline/promises';
import { colors } from './terminal.js';
import { out } from './lesson-text.js';

/**
 * Asks the learner to predict a figure before it is shown (on a terminal,
 * unless --yes); in a script it only states the question. Returns nothing:
 * the reveal follows either way.
 */
export async function askGuess(question: string, answer: string, interactive: boolean): Promise<void> {
  out(colors.bold(`Predict: ${question}`));
  if (!interactive) {
    out(`  answer: ${colors.bold(answer)}`);
    return;
  }
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    const guess = (await rl.question('  your guess (Enter to skip): ')).trim();
    out(guess === '' ? `  the answer: ${colors.bold(answer)}` : guess.replace(/[,\s]/g, '') === answer.replace(/[,\s]/g, '') ? colors.green(`  right: ${answer}`) : `  you said ${guess}; the answer: ${colors.bold(answer)}`);
  } finally {
    rl.close();
  }
}
