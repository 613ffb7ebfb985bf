import { Controller, Get, Header, NotFoundException, Param, StreamableFile } from '@nestjs/common';
import { AllowAnonymous } from '@s2sp/auth';
import { CONTRACT_VERSION } from '@s2sp/contracts';
import { SCHEMA_ID_PATTERN, SchemaRegistry, type SchemaEntry } from './schema-registry.service';

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
 * Anonymous, like rpc.discover and GET /health: it says nothing that
 * rpc.discover and the published protos do not. The MCP tools' schemas are
 * not listed: they are what tools.list returns, to callers with the
 * tools:list scope only, and they change as MCP servers come and go.
 */
@Controller('schemas')
@AllowAnonymous()
export class SchemasController {
  constructor(private readonly registry: SchemaRegistry) {}

  @Get()
  @Header('Cache-Control', 'no-cache')
  list(): SchemaList {
    return { contractVersion: CONTRACT_VERSION, schemas: this.registry.list() };
  }

  @Get(':id')
  @Header('Cache-Control', 'no-cache')
  document(@Param('id') id: string): StreamableFile {
    const document = this.registry.get(id);
    if (!document) {
      // The id is echoed only when it is a well-formed one: never arbitrary input.
      const named = SCHEMA_ID_PATTERN.test(id) ? ` ${id}` : '';
      throw new NotFoundException({ error: { code: 'SCHEMA_NOT_FOUND', message: `no schema${named}; GET /schemas lists them` } });
    }
    return new StreamableFile(document.content, { type: document.entry.contentType, length: document.entry.bytes });
  }
}
