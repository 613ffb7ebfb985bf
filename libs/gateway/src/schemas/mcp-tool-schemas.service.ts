import { Inject, Injectable, ServiceUnavailableException } from '@nestjs/common';
import {
  AuthorizationGate,
  PermissionDeniedError,
  type AuthorizationRequirements,
  type AuthorizationTarget,
  type CallerIdentity,
  type ResolvedAuthOptions,
} from '@s2sp/auth';
import { AUTH_OPTIONS, bearerChallenge, traceIdFrom } from '@s2sp/auth/internal';
import { CONTRACT_VERSION, PLATFORM_SCOPES, type v1 } from '@s2sp/contracts';
import { JsonRpcError } from '@s2sp/json-rpc';
import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { DownstreamCredentials, type DownstreamCall } from '../auth/downstream-credentials.service';
import { ToolScopeCatalog } from '../auth/tool-scope-catalog';
import type { GatewayConfig } from '../gateway.config';
import { GATEWAY_CONFIG } from '../gateway.constants';
import { toolDescriptorToJson } from '../transcoding/tool-transcoding';
import { SCHEMA_ID_PATTERN, schemaDocuments, type SchemaDocument } from './schema-registry.service';
import { jsonContent, type SchemaDocumentInit } from './schema-source';

/** What of an HTTP request (Fastify's or Express's) the registry reads. */
export interface SchemaRequest {
  readonly headers: IncomingHttpHeaders;
  readonly socket?: { readonly remoteAddress?: string };
}

/** What of an HTTP reply the registry sets: the Bearer challenge of a 401 / 403. */
export interface SchemaReply {
  header(name: string, value: string): unknown;
}

/** Ids of the tools' schemas: `mcp-tool.<server>.<tool>.<input|output>`, or by hash when the names do not fit an id. */
const TOOL_ID_PREFIX = /^mcp-tool(-sha256)?\./;
const SERVER_SEGMENT = /^[A-Za-z0-9_-]+$/;

const TOOLS_LIST_REQUIREMENTS: AuthorizationRequirements = Object.freeze({
  requiredScopes: Object.freeze([PLATFORM_SCOPES.TOOLS_LIST]),
  mutationClass: 'READ_ONLY',
});
const PUBLIC_REQUIREMENTS: AuthorizationRequirements = Object.freeze({
  requiredScopes: Object.freeze([]),
  mutationClass: 'READ_ONLY',
});

/**
 * The input and output JSON Schemas of the MCP tools behind the agents, as
 * tools.list publishes them, for GET /schemas. They reveal the tool catalogue,
 * which tools.list shows only to callers with the tools:list scope: so do
 * they. Read from the {@link ToolScopeCatalog}, the listing the gateway keeps
 * anyway (the agents list the same tools to every authenticated caller, so one
 * listing serves all), re-read with the requesting caller's token when stale;
 * the documents are rebuilt only when it was re-read.
 */
@Injectable()
export class McpToolSchemas {
  private built?: { tools: readonly v1.ToolDescriptor[]; documents: ReadonlyMap<string, SchemaDocument> };

  constructor(
    private readonly gate: AuthorizationGate,
    private readonly catalog: ToolScopeCatalog,
    private readonly credentials: DownstreamCredentials,
    @Inject(AUTH_OPTIONS) private readonly authOptions: ResolvedAuthOptions,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  /** Whether `id` names a tool's schema: such ids are served only to callers with tools:list. */
  isToolSchemaId(id: string): boolean {
    return TOOL_ID_PREFIX.test(id);
  }

  /**
   * The tools' schemas the caller of `request` may see. Without an
   * Authorization header: none, unless `required` (then 401). A credential
   * that does not verify: 401, never treated as anonymous. A caller without
   * tools:list: none, unless `required` (then 403 naming the scope). Agents
   * that cannot list their tools: 503.
   */
  async visibleTo(
    request: SchemaRequest,
    reply: SchemaReply,
    operation: string,
    required: boolean,
  ): Promise<ReadonlyMap<string, SchemaDocument>> {
    const authorization = request.headers.authorization;
    if (authorization === undefined && !required) return new Map();
    let caller: CallerIdentity;
    try {
      caller = (await this.gate.check(authorization, TOOLS_LIST_REQUIREMENTS, this.target(request, operation)))
        .identity;
    } catch (error) {
      if (error instanceof PermissionDeniedError && !required) return new Map();
      throw this.challenged(reply, error, authorization !== undefined);
    }
    let tools: readonly v1.ToolDescriptor[];
    try {
      tools = await this.catalog.listing(() => this.credentials.catalogOrigin(this.callFor(request, caller), caller));
    } catch (error) {
      // What a JSON-RPC call would have answered with (agents unreachable, deadline passed): caller-safe text.
      if (!(error instanceof JsonRpcError)) throw error;
      throw new ServiceUnavailableException({
        error: { code: 'TOOLS_UNAVAILABLE', message: `the agents' tools could not be listed: ${error.message}` },
      });
    }
    if (this.built?.tools !== tools)
      this.built = { tools, documents: schemaDocuments(tools.flatMap(toolSchemaDocuments)) };
    return this.built.documents;
  }

  /** A request for a public document that presents a credential: one that does not verify is a 401 there too. */
  async checkPresented(request: SchemaRequest, reply: SchemaReply, operation: string): Promise<void> {
    const authorization = request.headers.authorization;
    if (authorization === undefined) return;
    try {
      await this.gate.authenticate(authorization, PUBLIC_REQUIREMENTS, this.target(request, operation));
    } catch (error) {
      throw this.challenged(reply, error, true);
    }
  }

  private target(request: SchemaRequest, operation: string): AuthorizationTarget {
    return {
      protocol: 'http',
      service: this.authOptions.audience,
      operation,
      ...optional('traceId', traceIdFrom(request.headers.traceparent, request.headers['x-trace-id'])),
      ...optional('remoteAddress', request.socket?.remoteAddress),
    };
  }

  /** `error`, after setting the Bearer challenge a 401 or 403 answers with. */
  private challenged(reply: SchemaReply, error: unknown, credentialsPresented: boolean): unknown {
    const challenge = bearerChallenge(this.authOptions.audience, error, credentialsPresented);
    if (challenge) reply.header('WWW-Authenticate', challenge);
    return error;
  }

  /** The budget of a JSON-RPC call that names no deadline, for reading the agents' tools on the caller's behalf. */
  private callFor(request: SchemaRequest, caller: CallerIdentity): DownstreamCall {
    const budgetMs = this.config.jsonRpc.defaultDeadlineMs;
    const deadline = Date.now() + budgetMs;
    return {
      deadline,
      signal: AbortSignal.timeout(budgetMs),
      headers: request.headers,
      caller: { authenticated: true, subject: caller.subject, scopes: caller.scopes },
      remainingMs: () => Math.max(0, deadline - Date.now()),
    };
  }
}

/** The input schema of a tool and, when it declares one, its output schema: the bytes are tools.list's inputSchema / outputSchema. */
export function toolSchemaDocuments(descriptor: v1.ToolDescriptor): SchemaDocumentInit[] {
  const tool = toolDescriptorToJson(descriptor);
  const version = tool.version ?? CONTRACT_VERSION;
  const base = toolIdBase(tool.server, tool.name);
  const document = (part: 'input' | 'output', schema: object): SchemaDocumentInit => ({
    id: `${base}.${part}`,
    kind: part === 'input' ? 'mcp-tool-input' : 'mcp-tool-output',
    version,
    describes: `${tool.server}/${tool.name} ${part}Schema`,
    contentType: 'application/schema+json',
    content: jsonContent(schema),
  });
  return [document('input', tool.inputSchema), ...(tool.outputSchema ? [document('output', tool.outputSchema)] : [])];
}

/**
 * `mcp-tool.<server>.<tool>` when that is a valid id with room for the
 * suffix (a server name without '.', so that no two tools share it);
 * otherwise `mcp-tool-sha256.<first 32 hex digits of SHA-256(server NUL tool)>`.
 */
function toolIdBase(server: string, name: string): string {
  const readable = `mcp-tool.${server}.${name}`;
  if (SERVER_SEGMENT.test(server) && SCHEMA_ID_PATTERN.test(`${readable}.output`)) return readable;
  return `mcp-tool-sha256.${createHash('sha256').update(`${server}\0${name}`).digest('hex').slice(0, 32)}`;
}

function optional<K extends string>(key: K, value: string | undefined): Partial<Record<K, string>> {
  return value ? ({ [key]: value } as Record<K, string>) : {};
}
