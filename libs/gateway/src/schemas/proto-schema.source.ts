import { Injectable } from '@nestjs/common';
import { PACKAGE_CONTRACT_VERSIONS, PROTO_FILES } from '@s2sp/contracts';
import { PROTO_ROOT } from '@s2sp/contracts/internal';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SchemaDocumentInit, SchemaSource } from './schema-source';

/**
 * The contract's .proto files (s2sp.v1, s2sp.v2), one document each, as
 * written: the definition the agents' gRPC services and the gateway's
 * transcoding follow. Version: the one the file's package was released with.
 * Id: `proto.` + the file's path with '/' as '.', without the extension (`proto.s2sp.v1.tool`).
 */
@Injectable()
export class ProtoSchemaSource implements SchemaSource {
  documents(): SchemaDocumentInit[] {
    return PROTO_FILES.map((file) => {
      const content = readFileSync(join(PROTO_ROOT, file));
      const [, packageName = ''] = /^package ([\w.]+);$/m.exec(content.toString('utf8')) ?? [];
      const version = PACKAGE_CONTRACT_VERSIONS[packageName];
      if (version === undefined) throw new Error(`${file}: package ${packageName || '(none)'} has no contract version`);
      return {
        id: `proto.${file.replace(/\.proto$/, '').replace(/\//g, '.')}`,
        kind: 'proto',
        version,
        describes: file,
        contentType: 'text/plain; charset=utf-8',
        content,
      };
    });
  }
}
