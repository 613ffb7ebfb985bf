import type { Provider } from '@nestjs/common';
import { McpToolSchemas } from './mcp-tool-schemas.service';
import { OpenRpcSchemaSource } from './openrpc-schema.source';
import { ProtoSchemaSource } from './proto-schema.source';
import { SchemaRegistry } from './schema-registry.service';
import { SCHEMA_SOURCES, type SchemaSource } from './schema-source';

/** The schema registry behind GET /schemas and its sources; a new kind of contract document is one more source here. */
export const SCHEMA_REGISTRY_PROVIDERS: Provider[] = [
  ProtoSchemaSource,
  OpenRpcSchemaSource,
  {
    provide: SCHEMA_SOURCES,
    useFactory: (...sources: SchemaSource[]): SchemaSource[] => sources,
    inject: [ProtoSchemaSource, OpenRpcSchemaSource],
  },
  SchemaRegistry,
  // Not a source: the tools' schemas change as MCP servers come and go, and only some callers may see them.
  McpToolSchemas,
];
