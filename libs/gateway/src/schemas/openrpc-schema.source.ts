import { Injectable } from '@nestjs/common';
import { type JsonSchema } from '@s2sp/json-rpc';
import { RPC_DISCOVER, RpcDiscoverHandler, type OpenRpcDocument, type OpenRpcMethod } from '@s2sp/json-rpc/internal';
import { jsonContent, type SchemaDocumentInit, type SchemaSource } from './schema-source';

const JSON_SCHEMA_DRAFT = 'http://json-schema.org/draft-07/schema#';
const COMPONENT_REF = '#/components/schemas/';
const DEFINITION_REF = '#/definitions/';

/**
 * The JSON-RPC contract: the OpenRPC document rpc.discover returns (id
 * `openrpc`), and for each method a standalone JSON Schema of its params
 * (by name) and of its result (ids `jsonrpc.<method>.params` and
 * `jsonrpc.<method>.result`). All of them are the document's own schemas, so
 * they cannot disagree with what the gateway validates and answers.
 */
@Injectable()
export class OpenRpcSchemaSource implements SchemaSource {
  constructor(private readonly discover: RpcDiscoverHandler) {}

  documents(): SchemaDocumentInit[] {
    const openRpc = this.discover.discover();
    const version = openRpc.info.version;
    const methodSchema = (
      method: OpenRpcMethod,
      part: 'params' | 'result',
      schema: JsonSchema,
    ): SchemaDocumentInit => ({
      id: `jsonrpc.${method.name}.${part}`,
      kind: 'json-schema',
      version,
      describes: `${method.name} ${part}`,
      contentType: 'application/schema+json',
      content: jsonContent(standaloneSchema(schema, `${method.name} ${part}`, openRpc)),
    });
    return [
      {
        id: 'openrpc',
        kind: 'openrpc',
        version,
        describes: RPC_DISCOVER,
        contentType: 'application/json',
        content: jsonContent(openRpc),
      },
      ...openRpc.methods.flatMap((method) => [
        methodSchema(method, 'params', paramsSchema(method)),
        methodSchema(method, 'result', method.result.schema),
      ]),
    ];
  }
}

/** The params of a method as one object, the by-name form every method accepts. */
function paramsSchema(method: OpenRpcMethod): JsonSchema {
  const required = method.params.filter((param) => param.required).map((param) => param.name);
  return {
    type: 'object',
    properties: Object.fromEntries(method.params.map((param) => [param.name, param.schema])),
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: false,
  };
}

/**
 * `schema` as a document of its own: the OpenRPC components it refers to
 * (directly or through each other) become its `definitions`, and the refs point there.
 */
function standaloneSchema(schema: JsonSchema, title: string, openRpc: OpenRpcDocument): Record<string, unknown> {
  const components = openRpc.components.schemas;
  const definitions: Record<string, unknown> = {};
  const pending: string[] = [];
  const rewrite = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(rewrite);
    if (value === null || typeof value !== 'object') return value;
    return Object.fromEntries(
      Object.entries(value).map(([key, member]) => {
        if (key === '$ref' && typeof member === 'string' && member.startsWith(COMPONENT_REF)) {
          const name = member.slice(COMPONENT_REF.length);
          if (!(name in definitions) && !pending.includes(name)) pending.push(name);
          return [key, `${DEFINITION_REF}${name}`];
        }
        return [key, rewrite(member)];
      }),
    );
  };
  const root = rewrite(schema) as Record<string, unknown>;
  for (let name = pending.shift(); name !== undefined; name = pending.shift()) {
    definitions[name] = {}; // before rewriting, so that a schema referring to itself is not queued again
    definitions[name] = rewrite(components[name] ?? {});
  }
  // Beside a $ref, draft-07 ignores every other keyword: a root that is a ref is wrapped.
  const body = '$ref' in root ? { allOf: [root] } : root;
  return {
    $schema: JSON_SCHEMA_DRAFT,
    title,
    ...body,
    ...(Object.keys(definitions).length > 0 ? { definitions } : {}),
  };
}
