import { Injectable } from '@nestjs/common';
import { CONTRACT_VERSION, PROTO_FILES, PROTO_ROOT } from '@s2sp/contracts';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SchemaDocumentInit, SchemaSource } from './schema-source';

/**
 * The .proto files of s2sp.v1, one document each, as written: the definition
 * the agents' gRPC services and the gateway's transcoding follow.
 * Id: `proto.` + the file's path with '/' as '.', without the extension (`proto.s2sp.v1.tool`).
 */
@Injectable()
export class ProtoSchemaSource implements SchemaSource {
  documents(): SchemaDocumentInit[] {
    return PROTO_FILES.map((file) => ({
      id: `proto.${file.replace(/\.proto$/, '').replace(/\//g, '.')}`,
      kind: 'proto',
      version: CONTRACT_VERSION,
      describes: file,
      contentType: 'text/plain; charset=utf-8',
      content: readFileSync(join(PROTO_ROOT, file)),
    }));
  }
}
