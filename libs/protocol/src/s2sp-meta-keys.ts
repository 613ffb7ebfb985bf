/**
 * Keys S2SP uses in MCP `_meta` (request and result). `_meta` is protocol
 * metadata: clients do not show it to the model, so these facts stay out of
 * the context window.
 * @internal
 */
export const S2SP_META = {
  /** Request: absolute deadline (epoch ms) for the whole call, data-plane fetch included. */
  DEADLINE_MS: 's2sp/deadline_ms',
  /** Request: ask a resource tool to report body_tokens (costs a tokenizer pass). */
  COUNT_TOKENS: 's2sp/count_tokens',
  /** Request to a resource tool: the consumer service the agent will hand the resource_url to (binds it). */
  CONSUMER: 's2sp/consumer',
  /**
   * Request to a consumer tool: `total_rows` of the resource the abstract rows
   * came from. When the rows are all of them, the fetch names no row ids.
   */
  TOTAL_ROWS: 's2sp/total_rows',
  /** Tool definition of a resource tool: the media types its data plane answers in (JSON first: the default). */
  DATA_FORMATS: 's2sp/data_formats',
  /** Tool definition: scopes a caller must hold to call the tool. */
  SCOPES: 's2sp/scopes',
  /** Result: tokens of the body columns that stayed on the data plane (o200k_base). */
  BODY_TOKENS: 's2sp/body_tokens',
  /** Result: bytes of the body (JSON). */
  BODY_BYTES: 's2sp/body_bytes',
  /** Result content `resource_link` of an async answer: how many body columns the linked rows have. */
  BODY_COLUMNS: 's2sp/body_columns',
  /** Result of a failed call: machine-readable error code, e.g. DEADLINE_EXCEEDED. */
  ERROR_CODE: 's2sp/error_code',
  /** Result of a DEADLINE_EXCEEDED call: the hop where time ran out, e.g. "data-plane". */
  ERROR_HOP: 's2sp/error_hop',
} as const;
