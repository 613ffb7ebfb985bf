// The fenced code blocks of a Markdown file, as runnable examples: what the
// block is (its language and its marker) and where it is (file and heading).
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { lexer, type Token, type Tokens } from 'marked';

/**
 * How a block that is not run by its language is marked: an HTML comment on
 * the line right above the fence (invisible when the Markdown is rendered).
 * - `<!-- example: not-run <reason> -->`: not executed (an output sample, a
 *   diagram, a command that needs what a test cannot have); the reason is required.
 * - `<!-- example: starts-the-stack -->`: the commands that start the stack the
 *   other examples run against (`npm start`).
 * - `<!-- example: run-by <test file> -->`: executed, as written, by that test.
 */
export type ExampleMarker =
  { kind: 'not-run'; reason: string } | { kind: 'starts-the-stack' } | { kind: 'run-by'; testFile: string };

export interface MarkdownExample {
  /** Path relative to the repository root, e.g. `README.md`. */
  file: string;
  /** The headings above the block, outermost first. */
  headings: readonly string[];
  /** The fence's info string's first word (`bash`, `ts`, `json`), or '' when it has none. */
  language: string;
  code: string;
  marker?: ExampleMarker;
  /** 1-based number of this block among the file's blocks, for messages. */
  ordinal: number;
}

const MARKER = /^<!--\s*example:\s*(.*?)\s*-->\s*$/s;

export function markdownExamples(path: string, repoRoot: string): MarkdownExample[] {
  const file = relative(repoRoot, path);
  const examples: MarkdownExample[] = [];
  const headings: string[] = [];
  const walk = (tokens: readonly Token[]): void => {
    let pendingMarker: string | undefined;
    for (const token of tokens) {
      if (token.type === 'space') continue;
      if (token.type === 'heading') {
        const heading = token as Tokens.Heading;
        headings.length = heading.depth - 1;
        headings[heading.depth - 1] = heading.text;
      }
      if (token.type === 'code') {
        const code = token as Tokens.Code;
        examples.push({
          file,
          headings: headings.filter(Boolean),
          language: (code.lang ?? '').split(/\s+/)[0] ?? '',
          code: code.text,
          marker: pendingMarker === undefined ? undefined : parseMarker(pendingMarker, file),
          ordinal: examples.length + 1,
        });
      }
      pendingMarker =
        token.type === 'html' && MARKER.test(token.raw.trim()) ? MARKER.exec(token.raw.trim())![1] : undefined;
      const nested = token as { tokens?: Token[]; items?: Array<{ tokens: Token[] }> };
      if (nested.items) for (const item of nested.items) walk(item.tokens);
      else if (nested.tokens && token.type !== 'heading') walk(nested.tokens);
    }
  };
  walk(lexer(readFileSync(path, 'utf8')));
  return examples;
}

function parseMarker(text: string, file: string): ExampleMarker {
  const [kind = '', ...rest] = text.split(/\s+/);
  const argument = rest.join(' ').trim();
  if (kind === 'not-run' && argument !== '') return { kind, reason: argument };
  if (kind === 'starts-the-stack' && argument === '') return { kind };
  if (kind === 'run-by' && argument !== '') return { kind, testFile: argument };
  throw new Error(
    `${file}: unknown example marker "<!-- example: ${text} -->" (not-run <reason> | starts-the-stack | run-by <test file>)`,
  );
}

/** "README.md › Quick start (block 2)" */
export function describeExample(example: MarkdownExample): string {
  return `${example.file} › ${example.headings.at(-1) ?? '(top)'} (block ${example.ordinal}, \`\`\`${example.language})`;
}
