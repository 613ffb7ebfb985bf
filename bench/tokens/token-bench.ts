/**
 * Token benchmark: how many tokens a model reads for a plain MCP get_alerts
 * result versus the S2SP control-plane answer (abstract columns + resource_url).
 *
 *   npx tsc -p tsconfig.json && node dist/bench/tokens/token-bench.js [largeRows]
 *
 * See bench/tokens/README.md.
 */
import { AlertCatalog } from '../../apps/weather-server/src/alerts/alert-catalog';
import type { Row } from '../../libs/s2sp/src/protocol/row';
import { runAgentLoopBench } from './agent-loop-bench';
import { compareTokens, ENCODING, type TokenComparison } from './count-tokens';

export const ABSTRACT_DOMAIN_SETS = [
  'event',
  'event,severity,urgency',
  'event,severity,urgency,status,areaDesc',
] as const;
export const DEFAULT_LARGE_ROWS = 5_000;
/** The default answer, then the compact one (abstract_format "columns"). */
const FORMATS = ['rows', 'columns'] as const;

interface Dataset {
  name: string;
  rows: Row[];
}

function parseLargeRows(argv: readonly string[]): number {
  const raw = argv[0];
  if (raw === undefined) return DEFAULT_LARGE_ROWS;
  const rows = Number(raw);
  if (!Number.isSafeInteger(rows) || rows < 1)
    throw new Error(`token-bench: the row count must be a positive integer, got ${JSON.stringify(raw)}.`);
  return rows;
}

function formatRow(dataset: string, result: TokenComparison): string[] {
  return [
    dataset,
    String(result.rows),
    `${result.abstractColumns} (${result.abstractDomains})`,
    result.format === 'columns' ? 'compact' : 'default',
    result.plainTokens.toLocaleString('en-US'),
    result.s2spTokens.toLocaleString('en-US'),
    `${result.savedPercent.toFixed(1)}%`,
    `${result.ratio.toFixed(1)}×`,
    result.plainTokensPerRow.toFixed(1),
    result.s2spTokensPerRow.toFixed(1),
  ];
}

/** A GitHub-flavoured Markdown table, columns padded for the terminal. */
function table(header: string[], rows: string[][], rightAligned: ReadonlySet<number>): string {
  const widths = header.map((cell, i) => Math.max(cell.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]): string =>
    `| ${cells.map((cell, i) => (rightAligned.has(i) ? cell.padStart(widths[i]) : cell.padEnd(widths[i]))).join(' | ')} |`;
  const rule = `|${widths.map((width, i) => (rightAligned.has(i) ? `${'-'.repeat(width + 1)}:` : '-'.repeat(width + 2))).join('|')}|`;
  return [line(header), rule, ...rows.map(line)].join('\n');
}

async function main(): Promise<void> {
  const largeRows = parseLargeRows(process.argv.slice(2));
  const catalog = new AlertCatalog();
  const datasets: Dataset[] = [
    { name: 'CA alerts', rows: catalog.forArea('CA') },
    { name: `generated ${largeRows.toLocaleString('en-US')}`, rows: catalog.large(largeRows) },
  ];

  const started = performance.now();
  const lines: string[][] = [];
  for (const dataset of datasets) {
    for (const domains of ABSTRACT_DOMAIN_SETS) {
      for (const format of FORMATS) lines.push(formatRow(dataset.name, compareTokens(dataset.rows, domains, format)));
    }
  }
  const seconds = (performance.now() - started) / 1000;

  const columns = new Set(datasets[0].rows.flatMap((row) => Object.keys(row))).size;
  console.log(`S2SP token benchmark — tokenizer ${ENCODING} (js-tiktoken), ${columns} columns per alert`);
  console.log('plain = JSON text of every row (plain MCP result); S2SP = JSON text of the async control-plane answer,');
  console.log('default (total_rows, columns, abstract_domains, body_domains, resource_url, abstract as row objects)');
  console.log(
    'or compact, abstract_format "columns" (total_rows, body_domains, resource_url, abstract as {columns, rows})\n',
  );
  console.log(
    table(
      [
        'dataset',
        'rows',
        'abstract columns',
        'form',
        'plain tokens',
        'S2SP tokens',
        'saved',
        'ratio',
        'plain/row',
        'S2SP/row',
      ],
      lines,
      new Set([1, 4, 5, 6, 7, 8, 9]),
    ),
  );
  console.log(`\ncounted in ${seconds.toFixed(1)} s\n`);
  // The same task through real agent loops: what a model is actually sent, with and without S2SP.
  await runAgentLoopBench(largeRows);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
