import { Controller } from '@nestjs/common';
import type { Metadata } from '@grpc/grpc-js';
import { GrpcMethod } from '@nestjs/microservices';
import { PLATFORM_SCOPES, type v2 } from '@s2sp/contracts';
import { RequireScopes } from '@s2sp/auth';
import type { GrpcServerCall } from '../grpc/grpc-call';
import { invokeToolResponseV2 } from './invoke-tool-v2-messages';
import { ToolCallService } from './tool-call.service';

/** s2sp.v2.ToolService: the same tool calls as s2sp.v1, answered with a typed result. */
@Controller()
export class ToolV2Controller {
  constructor(private readonly toolCalls: ToolCallService) {}

  @GrpcMethod('s2sp.v2.ToolService', 'InvokeTool')
  @RequireScopes(PLATFORM_SCOPES.TOOLS_CALL)
  invokeTool(request: v2.InvokeToolRequest, metadata: Metadata, call: GrpcServerCall): Promise<v2.InvokeToolResponse> {
    return this.toolCalls.call(request, metadata, call, invokeToolResponseV2);
  }
}
