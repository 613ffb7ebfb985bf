import { Controller, Get, Header, NotFoundException, Param, Req, Res, StreamableFile } from '@nestjs/common';
import { AllowAnonymous } from '@s2sp/auth';
import { CONTRACT_VERSION } from '@s2sp/contracts';
import { McpToolSchemas, type SchemaReply, type SchemaRequest } from './mcp-tool-schemas.service';
import { SCHEMA_ID_PATTERN, SchemaRegistry, type SchemaDocument, type SchemaEntry } from './schema-registry.service';

export interface SchemaList {
  contractVersion: string;
  schemas: SchemaEntry[];
}

/**
 * GET /schemas: the contract documents the gateway serves (the s2sp.v1
 * protos, the OpenRPC document, the JSON Schemas of the methods' params and
 * results), each with its kind, version and SHA-256; GET /schemas/<id>: the
 * document itself, as its content type.
 *
 * Anonymous, like rpc.discover and GET /health: those documents say nothing
 * that rpc.discover and the published protos do not. The MCP tools' input and
 * output schemas reveal the tool catalogue, which tools.list shows only to
 * callers with the tools:list scope: they are listed and served only to a
 * caller presenting such a token (a token that does not verify is a 401,
 * never an anonymous request).
 */
@Controller('schemas')
@AllowAnonymous()
export class SchemasController {
  constructor(
    private readonly registry: SchemaRegistry,
    private readonly toolSchemas: McpToolSchemas,
  ) {}

  @Get()
  @Header('Cache-Control', 'no-cache')
  @Header('Vary', 'Authorization')
  async list(@Req() request: SchemaRequest, @Res({ passthrough: true }) reply: SchemaReply): Promise<SchemaList> {
    const tools = await this.toolSchemas.visibleTo(request, reply, 'GET /schemas', false);
    return {
      contractVersion: CONTRACT_VERSION,
      schemas: [...this.registry.list(), ...[...tools.values()].map((document) => document.entry)],
    };
  }

  @Get(':id')
  @Header('Cache-Control', 'no-cache')
  @Header('Vary', 'Authorization')
  async document(
    @Param('id') id: string,
    @Req() request: SchemaRequest,
    @Res({ passthrough: true }) reply: SchemaReply,
  ): Promise<StreamableFile> {
    const document = await this.find(id, request, reply);
    if (!document) {
      // The id is echoed only when it is a well-formed one: never arbitrary input.
      const named = SCHEMA_ID_PATTERN.test(id) ? ` ${id}` : '';
      throw new NotFoundException({
        error: { code: 'SCHEMA_NOT_FOUND', message: `no schema${named}; GET /schemas lists them` },
      });
    }
    return new StreamableFile(document.content, { type: document.entry.contentType, length: document.entry.bytes });
  }

  private async find(id: string, request: SchemaRequest, reply: SchemaReply): Promise<SchemaDocument | undefined> {
    const operation = 'GET /schemas/:id';
    if (SCHEMA_ID_PATTERN.test(id) && this.toolSchemas.isToolSchemaId(id))
      return (await this.toolSchemas.visibleTo(request, reply, operation, true)).get(id);
    await this.toolSchemas.checkPresented(request, reply, operation);
    return this.registry.get(id);
  }
}
