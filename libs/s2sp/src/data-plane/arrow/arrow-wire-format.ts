/**
 * Names and values of the metadata that make an Arrow IPC stream an S2SP data-plane
 * answer. The layout they describe is documented in README.md in this folder.
 */
export const ARROW_WIRE_FORMAT = 's2sp-arrow/1';

export const ROW_ID_FIELD_NAME = '_row_id';

export const SchemaMetadataKey = {
  format: 's2sp:format',
  totalRows: 's2sp:total_rows',
} as const;

export const FieldMetadataKey = {
  role: 's2sp:role',
  encoding: 's2sp:encoding',
  presenceOf: 's2sp:presence_of',
} as const;

export const FieldRole = {
  rowId: 'row_id',
  value: 'value',
  presence: 'presence',
} as const;

export const JSON_TEXT_ENCODING = 'json';
