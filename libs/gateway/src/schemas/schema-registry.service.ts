import { Inject, Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { SCHEMA_SOURCES, type SchemaDocumentInit, type SchemaKind, type SchemaSource } from './schema-source';

/** What `GET /schemas` lists of a document. */
export interface SchemaEntry {
  id: string;
  kind: SchemaKind;
  version: string;
  describes: string;
  contentType: string;
  /** Lower-case hex SHA-256 of the exact bytes `GET /schemas/<id>` answers with. */
  sha256: string;
  bytes: number;
  /** Path of the document on this gateway. */
  href: string;
}

export interface SchemaDocument {
  entry: SchemaEntry;
  content: Buffer;
}

/** The ids a document may have: one URL path segment without escaping, at most 100 characters (Fastify's limit for a route parameter). */
export const SCHEMA_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

/**
 * Every contract document the gateway serves, from the {@link SCHEMA_SOURCES},
 * with its content hash. Built on first use (the JSON-RPC methods are
 * registered by then) and kept: the documents do not change while the process runs.
 */
@Injectable()
export class SchemaRegistry {
  private documents?: ReadonlyMap<string, SchemaDocument>;

  constructor(@Inject(SCHEMA_SOURCES) private readonly sources: readonly SchemaSource[]) {}

  list(): SchemaEntry[] {
    return [...this.all().values()].map((document) => document.entry);
  }

  /** The document of `id`, or undefined when there is none (any string may be asked for). */
  get(id: string): SchemaDocument | undefined {
    return SCHEMA_ID_PATTERN.test(id) ? this.all().get(id) : undefined;
  }

  private all(): ReadonlyMap<string, SchemaDocument> {
    return (this.documents ??= schemaDocuments(this.sources.flatMap((source) => source.documents())));
  }
}

/** The documents by id, each with its entry (hash, size, href); an id that is malformed or taken twice is a programming error. */
export function schemaDocuments(inits: readonly SchemaDocumentInit[]): ReadonlyMap<string, SchemaDocument> {
  const documents = new Map<string, SchemaDocument>();
  for (const init of inits) {
    if (!SCHEMA_ID_PATTERN.test(init.id))
      throw new Error(`schema id ${JSON.stringify(init.id)} does not match ${SCHEMA_ID_PATTERN}`);
    if (documents.has(init.id)) throw new Error(`two schema documents have the id ${init.id}`);
    documents.set(init.id, { entry: entryOf(init), content: init.content });
  }
  return documents;
}

function entryOf(init: SchemaDocumentInit): SchemaEntry {
  return {
    id: init.id,
    kind: init.kind,
    version: init.version,
    describes: init.describes,
    contentType: init.contentType,
    sha256: createHash('sha256').update(init.content).digest('hex'),
    bytes: init.content.length,
    href: `/schemas/${init.id}`,
  };
}
