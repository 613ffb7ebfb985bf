/**
 * The parameters S2SP adds to a resource tool (the tool's own come beside them).
 * They are the reference SDK's, so they also identify a resource tool.
 * @internal
 */
export const S2SP_RESOURCE_PARAMETERS = ['abstract_domains', 'mode'] as const;

/**
 * Optional parameters this implementation adds to resource tools beyond the
 * reference SDK's: a tool without them is still an S2SP resource tool.
 * `abstract_format` asks for the compact answer (docs/compact-abstract.md).
 * @public
 */
export const S2SP_RESOURCE_EXTENSION_PARAMETERS = ['abstract_format'] as const;

/**
 * The parameters S2SP adds to a consumer tool: the abstract rows, and the body by URL (async) or inline (sync).
 * @internal
 */
export const S2SP_CONSUMER_PARAMETERS = ['abstract_data', 'resource_url', 'body_data', 'column_mapping'] as const;
