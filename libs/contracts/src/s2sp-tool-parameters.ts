/** The parameters S2SP adds to a resource tool (the tool's own come beside them). */
export const S2SP_RESOURCE_PARAMETERS = ['abstract_domains', 'mode'] as const;

/** The parameters S2SP adds to a consumer tool: the abstract rows, and the body by URL (async) or inline (sync). */
export const S2SP_CONSUMER_PARAMETERS = ['abstract_data', 'resource_url', 'body_data', 'column_mapping'] as const;
