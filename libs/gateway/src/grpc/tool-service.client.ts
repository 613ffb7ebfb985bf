import type * as grpc from '@grpc/grpc-js';
import { type v1, type v2 } from '@s2sp/contracts';
import { GRPC_CATALOG_METADATA } from '@s2sp/contracts/internal';
import { Injectable } from '@nestjs/common';
import { AgentsDownstream, type CallOrigin } from './agents-downstream';
import { AgentsGrpcClients } from './agents-grpc-clients';

/** An answer and the surfaces fingerprint the agents sent with it (agents before it send none). */
export interface WithSurfacesFingerprint<Answer> {
  answer: Answer;
  surfacesFingerprint?: string;
}

/** s2sp.v1.ToolService (and s2sp.v2.ToolService for InvokeTool, ListSurfaces and ReadResource) of the agents, called on behalf of JSON-RPC calls. */
@Injectable()
export class ToolServiceClient {
  constructor(
    private readonly clients: AgentsGrpcClients,
    private readonly downstream: AgentsDownstream,
  ) {}

  async listTools(
    request: v1.ListToolsRequest,
    origin: CallOrigin,
  ): Promise<WithSurfacesFingerprint<v1.ListToolsResponse>> {
    const fingerprint = fingerprintReader();
    const answer = await this.downstream.call<v1.ListToolsResponse>(
      this.clients.toolService,
      'ListTools',
      request,
      origin,
      fingerprint.read,
    );
    return { answer, surfacesFingerprint: fingerprint.value() };
  }

  invokeTool(request: v1.ToolInvocationRequest, origin: CallOrigin): Promise<v1.ToolInvocationResponse> {
    return this.downstream.call(this.clients.toolService, 'InvokeTool', request, origin);
  }

  /** s2sp.v2.ToolService/InvokeTool: the same call, answered with a typed result. */
  invokeToolV2(request: v2.InvokeToolRequest, origin: CallOrigin): Promise<v2.InvokeToolResponse> {
    return this.downstream.call(this.clients.toolServiceV2, 'InvokeTool', request, origin);
  }

  /** s2sp.v2.ToolService/ListSurfaces: the servers' resources, resource templates and prompts; undefined from agents older than contract 2.1.0. */
  async listSurfaces(
    request: v2.ListSurfacesRequest,
    origin: CallOrigin,
  ): Promise<WithSurfacesFingerprint<v2.ListSurfacesResponse> | undefined> {
    const fingerprint = fingerprintReader();
    const answer = await this.downstream.callIfImplemented<v2.ListSurfacesResponse>(
      this.clients.toolServiceV2,
      'ListSurfaces',
      request,
      origin,
      fingerprint.read,
    );
    return answer === undefined ? undefined : { answer, surfacesFingerprint: fingerprint.value() };
  }

  /** s2sp.v2.ToolService/ReadResource: one resource of one MCP server, read with the caller's authority. */
  readResource(request: v2.ReadResourceRequest, origin: CallOrigin): Promise<v2.ReadResourceResponse> {
    return this.downstream.call(this.clients.toolServiceV2, 'ReadResource', request, origin);
  }

  listServers(origin: CallOrigin): Promise<v1.ListServersResponse> {
    return this.downstream.call(this.clients.toolService, 'ListServers', {}, origin);
  }
}

/** Longer than any digest the agents send (22 characters): a longer value is not a fingerprint. */
const MAX_FINGERPRINT_LENGTH = 128;

/** Reads the surfaces fingerprint from a call's response headers, ignoring a missing or malformed one. */
function fingerprintReader(): { read(headers: grpc.Metadata): void; value(): string | undefined } {
  let fingerprint: string | undefined;
  return {
    read(headers) {
      const [value] = headers.get(GRPC_CATALOG_METADATA.SURFACES_FINGERPRINT);
      fingerprint =
        typeof value === 'string' && value.length > 0 && value.length <= MAX_FINGERPRINT_LENGTH ? value : undefined;
    },
    value: () => fingerprint,
  };
}
