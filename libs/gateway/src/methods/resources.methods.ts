import { Injectable } from '@nestjs/common';
import { RequireScopes } from '@s2sp/auth';
import { PLATFORM_SCOPES } from '@s2sp/contracts';
import { JsonRpcMethod, type JsonRpcCallContext } from '@s2sp/json-rpc';
import { measureTranscoding, Telemetry } from '@s2sp/telemetry';
import { DownstreamCredentials } from '../auth/downstream-credentials.service';
import { ToolServiceClient } from '../grpc/tool-service.client';
import { readResourceRequest, readResourceResult, type ReadResourceResult } from '../transcoding/resource-transcoding';
import { ReadResourceParams } from './dto/read-resource.params';
import { READ_RESOURCE_RESULT } from './results/result-schemas';

/** resources.* -> s2sp.v2.ToolService of the agents. */
@Injectable()
export class ResourcesMethods {
  constructor(
    private readonly tools: ToolServiceClient,
    private readonly credentials: DownstreamCredentials,
    private readonly telemetry: Telemetry,
  ) {}

  @JsonRpcMethod('resources.read', {
    params: ReadResourceParams,
    result: READ_RESOURCE_RESULT,
    summary: "Read one resource of one MCP server with the caller's authority; MCP's resources/read result",
    description:
      "Served by s2sp.v2.ToolService/ReadResource. The server checks the resource's own scope (e.g. s2sp:activity:read for s2sp://data-plane/activity): " +
      'its refusal is 4002 with its message, an unknown server -32602; a URI the server does not know is a result with error (its MCP code).',
    idempotent: true,
  })
  @RequireScopes(PLATFORM_SCOPES.RESOURCES_READ)
  async read(params: ReadResourceParams, ctx: JsonRpcCallContext): Promise<ReadResourceResult> {
    const origin = await this.credentials.originForResourceRead(ctx);
    const request = measureTranscoding(this.telemetry, 'json-rpc', 'grpc', 'resources.read', () =>
      readResourceRequest(params, ctx),
    );
    const response = await this.tools.readResource(request, origin);
    return measureTranscoding(this.telemetry, 'grpc', 'json-rpc', 'resources.read', () =>
      readResourceResult(response, params),
    );
  }
}
