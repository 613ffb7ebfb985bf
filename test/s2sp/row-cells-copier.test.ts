import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createRowCellsCopier } from '../../libs/s2sp/src/data-plane/row-cells-copier';
import type { Row } from '../../libs/s2sp/src/protocol/row';

/** What the copier must give: the row's own value, undefined where the row does not have the column. */
function ownCells(
  rows: readonly Row[],
  rowIds: readonly number[] | null,
  start: number,
  end: number,
  columns: readonly string[],
): unknown[][] {
  return columns.map((column) =>
    Array.from({ length: end - start }, (_, offset) => {
      const row = rows[rowIds === null ? start + offset : rowIds[start + offset]];
      return Object.prototype.hasOwnProperty.call(row, column) ? row[column] : undefined;
    }),
  );
}

function copy(
  columns: readonly string[],
  rows: readonly Row[],
  rowIds: readonly number[] | null,
  start: number,
  end: number,
): unknown[][] {
  const into = columns.map(() => new Array<unknown>(end - start));
  createRowCellsCopier(columns)(rows, rowIds, start, end, into);
  return into;
}

class WithInheritedValue {
  own = 'mine';
  get inherited(): string {
    return 'from the prototype';
  }
}

const COLUMNS = ['a', 'own', 'inherited', 'toString', 'constructor', '__proto__', 'hasOwnProperty', 'missing'];
const ROWS: Row[] = [
  { a: 1, own: 'x' },
  JSON.parse('{"a":2,"toString":"t","constructor":"c","__proto__":{"p":1},"hasOwnProperty":false}') as Row,
  Object.assign(Object.create(null) as Row, { a: 3, inherited: 'own on a null-prototype row' }),
  new WithInheritedValue() as unknown as Row,
  { a: undefined, own: null, inherited: 0 },
  Object.defineProperty({ a: 5 }, 'own', { get: () => 'an own getter', enumerable: true }),
];

describe('copying the cells of selected rows, column by column', () => {
  test('gives each row its own values only: inherited values and Object.prototype names the row lacks are undefined', () => {
    const cells = copy(COLUMNS, ROWS, null, 0, ROWS.length);
    assert.deepEqual(cells, ownCells(ROWS, null, 0, ROWS.length, COLUMNS));
    const column = (name: string): unknown[] => cells[COLUMNS.indexOf(name)];
    assert.deepEqual(column('inherited'), [
      undefined,
      undefined,
      'own on a null-prototype row',
      undefined,
      0,
      undefined,
    ]);
    assert.deepEqual(column('toString'), [undefined, 't', undefined, undefined, undefined, undefined]);
    assert.deepEqual(column('__proto__'), [undefined, { p: 1 }, undefined, undefined, undefined, undefined]);
    assert.deepEqual(column('own'), ['x', undefined, undefined, 'mine', null, 'an own getter']);
  });

  test('reads rows through the selected ids, from any start, into offsets from 0', () => {
    const rowIds = [5, 0, 3, 1, 4];
    assert.deepEqual(copy(COLUMNS, ROWS, rowIds, 1, 4), ownCells(ROWS, rowIds, 1, 4, COLUMNS));
    assert.deepEqual(
      copy(COLUMNS, ROWS, null, 2, 2),
      COLUMNS.map(() => []),
    );
  });

  test('column names are data: quotes, backslashes, line separators and code stay names', () => {
    const columns = [
      'a"b',
      'back\\slash',
      'line\u2028sep',
      '"]; globalThis.injected = 1; //',
      '${globalThis.injected = 2}',
      '',
    ];
    const rows = [0, 1].map(
      (index) => Object.fromEntries(columns.map((column) => [column, `${column} ${index}`])) as Row,
    );
    assert.deepEqual(copy(columns, rows, null, 0, 2), ownCells(rows, null, 0, 2, columns));
    assert.equal((globalThis as Record<string, unknown>).injected, undefined);
  });

  test('gives the same cells where code generation from strings is disabled', () => {
    const copier = require.resolve('../../libs/s2sp/src/data-plane/row-cells-copier');
    const script = `
      const { createRowCellsCopier } = require(${JSON.stringify(copier)});
      let generated = true;
      try { new Function('return 1'); } catch { generated = false; }
      const rows = [JSON.parse('{"a":1,"__proto__":"p"}'), Object.create({ a: 'inherited' }), { b: 2 }];
      const into = [[], [], []];
      createRowCellsCopier(['a', '__proto__', 'b'])(rows, [2, 0, 1], 0, 3, into);
      process.stdout.write(JSON.stringify({ generated, into: into.map((cells) => cells.map((cell) => cell === undefined ? 'absent' : cell)) }));
    `;
    const output = execFileSync(process.execPath, ['--disallow-code-generation-from-strings', '-e', script], {
      encoding: 'utf8',
    });
    assert.deepEqual(JSON.parse(output), {
      generated: false,
      into: [
        ['absent', 1, 'absent'],
        ['absent', 'p', 'absent'],
        [2, 'absent', 'absent'],
      ],
    });
  });
});
