import { S2spToolError } from './s2sp-error';

/** Refuses more than `maxRows` rows in a parameter, before any per-row work. */
export function checkRowCount(parameter: string, rowCount: number, maxRows: number): void {
  if (rowCount > maxRows) throw new S2spToolError(`${parameter} has ${rowCount} rows; at most ${maxRows} are allowed.`);
}
