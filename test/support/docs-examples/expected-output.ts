// The answers an example states, `# → …` in shell and `// → …` in TypeScript,
// checked against what it printed: `…` stands for any text.

/** The stated answers of a block, in order: each line comment that starts with an arrow. */
export function statedAnswers(code: string, comment: '#' | '//'): string[] {
  const prefix = `${comment} →`;
  return code
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.startsWith(prefix))
    .map((line) => line.slice(prefix.length).trim());
}

/** A stated answer as a pattern for one whole output line; `…` matches any text. */
export function answerPattern(answer: string): RegExp {
  const parts = answer.split('…').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('.*?')}$`);
}

/**
 * Each stated answer must match a line of `output`, in the order stated.
 * Returns what is missing (empty when every answer was printed).
 */
export function unmetAnswers(answers: readonly string[], output: string): string[] {
  const lines = output.split('\n').map((line) => line.trim());
  let next = 0;
  const unmet: string[] = [];
  for (const answer of answers) {
    const pattern = answerPattern(answer);
    const found = lines.findIndex((line, index) => index >= next && pattern.test(line));
    if (found === -1) unmet.push(answer);
    else next = found + 1;
  }
  return unmet;
}
