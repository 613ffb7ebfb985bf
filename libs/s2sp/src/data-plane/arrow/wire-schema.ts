import { Bool, DataType, Dictionary, Field, Float64, Int32, Null, Precision, Schema, Utf8 } from 'apache-arrow';
import { ArrowDecodeError } from './arrow-errors';
import {
  ARROW_WIRE_FORMAT,
  FieldMetadataKey,
  FieldRole,
  JSON_TEXT_ENCODING,
  ROW_ID_FIELD_NAME,
  SchemaMetadataKey,
} from './arrow-wire-format';
import type { ColumnKind } from './column-kind';

/** One data column of the answer and where it sits in the Arrow schema. */
export interface WireColumn {
  readonly name: string;
  readonly kind: ColumnKind;
  readonly valueFieldIndex: number;
  /** The Bool field telling present cells from absent ones; null when no cell is absent. */
  readonly presenceFieldIndex: number | null;
}

export interface WireLayout {
  readonly columns: readonly WireColumn[];
  readonly totalRows: number;
}

export interface ColumnPlan {
  readonly name: string;
  readonly kind: ColumnKind;
  readonly hasAbsentCells: boolean;
  /** Send the column, if it is `utf8`, as Dictionary<Int32, Utf8>, one dictionary per record batch. */
  readonly dictionaryEncoded: boolean;
}

function arrowTypeOf({ kind, dictionaryEncoded }: ColumnPlan, dictionaryId: number): DataType {
  if (kind === 'utf8' && dictionaryEncoded) return new Dictionary(new Utf8(), new Int32(), dictionaryId);
  switch (kind) {
    case 'null':
      return new Null();
    case 'float64':
      return new Float64();
    case 'bool':
      return new Bool();
    case 'utf8':
    case 'json':
      return new Utf8();
  }
}

/** The schema of an answer: `_row_id`, one value field per column, then the presence fields. */
export function buildWireSchema(
  plans: readonly ColumnPlan[],
  totalRows: number,
): { schema: Schema; layout: WireLayout } {
  const rowIdField = new Field(
    ROW_ID_FIELD_NAME,
    new Int32(),
    false,
    new Map([[FieldMetadataKey.role, FieldRole.rowId]]),
  );
  const valueFields: Field[] = [];
  const presenceFields: Field[] = [];
  const columns: WireColumn[] = [];
  plans.forEach((plan, columnIndex) => {
    const valueFieldIndex = 1 + columnIndex;
    const metadata = new Map<string, string>([[FieldMetadataKey.role, FieldRole.value]]);
    if (plan.kind === 'json') metadata.set(FieldMetadataKey.encoding, JSON_TEXT_ENCODING);
    valueFields.push(new Field(plan.name, arrowTypeOf(plan, columnIndex), true, metadata));
    let presenceFieldIndex: number | null = null;
    if (plan.hasAbsentCells) {
      presenceFieldIndex = 1 + plans.length + presenceFields.length;
      const presenceMetadata = new Map([
        [FieldMetadataKey.role, FieldRole.presence],
        [FieldMetadataKey.presenceOf, String(valueFieldIndex)],
      ]);
      // The name is for people reading the schema; readers go by the metadata, since any name can collide with a column's.
      presenceFields.push(new Field(`${plan.name} (present)`, new Bool(), false, presenceMetadata));
    }
    columns.push({ name: plan.name, kind: plan.kind, valueFieldIndex, presenceFieldIndex });
  });
  const schemaMetadata = new Map([
    [SchemaMetadataKey.format, ARROW_WIRE_FORMAT],
    [SchemaMetadataKey.totalRows, String(totalRows)],
  ]);
  return {
    schema: new Schema([rowIdField, ...valueFields, ...presenceFields], schemaMetadata),
    layout: { columns, totalRows },
  };
}

function describeField(field: Field, index: number): string {
  return `field ${index} (${JSON.stringify(field.name)}, ${String(field.type)})`;
}

/** Dictionary-encoded text (any producer's integer keys of up to 32 bits) counts as its Utf8 values. */
function valueTypeOf(field: Field, index: number): DataType {
  const { type } = field;
  if (!DataType.isDictionary(type)) return type;
  if (!DataType.isUtf8(type.dictionary) || type.indices.bitWidth > 32) {
    throw new ArrowDecodeError(
      `The ${describeField(field, index)} is dictionary-encoded with keys or values the S2SP layout does not use.`,
    );
  }
  return type.dictionary;
}

function kindOfValueField(field: Field, index: number): ColumnKind {
  const type = valueTypeOf(field, index);
  const encoding = field.metadata.get(FieldMetadataKey.encoding);
  if (encoding !== undefined && encoding !== JSON_TEXT_ENCODING) {
    throw new ArrowDecodeError(
      `The ${describeField(field, index)} has the unknown encoding ${JSON.stringify(encoding)}.`,
    );
  }
  if (encoding === JSON_TEXT_ENCODING) {
    if (!DataType.isUtf8(type))
      throw new ArrowDecodeError(`The ${describeField(field, index)} is JSON-encoded but not Utf8.`);
    return 'json';
  }
  if (DataType.isNull(type)) return 'null';
  if (DataType.isBool(type)) return 'bool';
  if (DataType.isUtf8(type)) return 'utf8';
  if (DataType.isFloat(type) && type.precision === Precision.DOUBLE) return 'float64';
  throw new ArrowDecodeError(`The ${describeField(field, index)} has a type the S2SP layout does not use.`);
}

/** apache-arrow writes no name for an empty one and reads a missing name as null. */
function columnNameOf(field: Field): string {
  const name = field.name as string | null | undefined;
  return name ?? '';
}

function parseCount(text: string | undefined, what: string): number {
  const count = text !== undefined && /^(0|[1-9][0-9]*)$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(count))
    throw new ArrowDecodeError(`The ${what} is not a non-negative integer: ${JSON.stringify(text ?? null)}.`);
  return count;
}

/** Checks that a received schema follows the S2SP layout and says where each column is. */
export function readWireLayout(schema: Schema): WireLayout {
  const format = schema.metadata.get(SchemaMetadataKey.format);
  if (format !== ARROW_WIRE_FORMAT) {
    throw new ArrowDecodeError(
      `The Arrow stream is not an S2SP answer: schema metadata ${SchemaMetadataKey.format} is ${JSON.stringify(format ?? null)}, expected ${JSON.stringify(ARROW_WIRE_FORMAT)}.`,
    );
  }
  const totalRows = parseCount(
    schema.metadata.get(SchemaMetadataKey.totalRows),
    `schema metadata ${SchemaMetadataKey.totalRows}`,
  );
  const [rowIdField, ...otherFields] = schema.fields;
  if (
    rowIdField === undefined ||
    rowIdField.name !== ROW_ID_FIELD_NAME ||
    rowIdField.metadata.get(FieldMetadataKey.role) !== FieldRole.rowId ||
    !DataType.isInt(rowIdField.type) ||
    rowIdField.type.bitWidth !== 32 ||
    !rowIdField.type.isSigned
  ) {
    throw new ArrowDecodeError(`The first field of an S2SP Arrow answer must be the Int32 ${ROW_ID_FIELD_NAME} field.`);
  }
  const valueColumns: Array<{ name: string; kind: ColumnKind; valueFieldIndex: number }> = [];
  const presenceByValueField = new Map<number, number>();
  otherFields.forEach((field, offset) => {
    const index = offset + 1;
    const role = field.metadata.get(FieldMetadataKey.role);
    if (role === FieldRole.value) {
      valueColumns.push({ name: columnNameOf(field), kind: kindOfValueField(field, index), valueFieldIndex: index });
    } else if (role === FieldRole.presence) {
      if (!DataType.isBool(field.type))
        throw new ArrowDecodeError(`The presence ${describeField(field, index)} is not Bool.`);
      const valueFieldIndex = parseCount(
        field.metadata.get(FieldMetadataKey.presenceOf),
        `${FieldMetadataKey.presenceOf} of ${describeField(field, index)}`,
      );
      if (presenceByValueField.has(valueFieldIndex))
        throw new ArrowDecodeError(`Field ${valueFieldIndex} has two presence fields.`);
      presenceByValueField.set(valueFieldIndex, index);
    } else {
      throw new ArrowDecodeError(
        `The ${describeField(field, index)} has no known ${FieldMetadataKey.role}: ${JSON.stringify(role ?? null)}.`,
      );
    }
  });
  const names = new Set<string>();
  for (const { name } of valueColumns) {
    if (name === ROW_ID_FIELD_NAME || names.has(name))
      throw new ArrowDecodeError(`The column name ${JSON.stringify(name)} appears twice.`);
    names.add(name);
  }
  const columns = valueColumns.map((column) => {
    const presenceFieldIndex = presenceByValueField.get(column.valueFieldIndex) ?? null;
    presenceByValueField.delete(column.valueFieldIndex);
    return { ...column, presenceFieldIndex };
  });
  if (presenceByValueField.size > 0) {
    throw new ArrowDecodeError(
      `A presence field points at field ${[...presenceByValueField.keys()][0]}, which is not a value field.`,
    );
  }
  return { columns, totalRows };
}
