import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import * as grpc from '@grpc/grpc-js';
import { grpcPackageDefinition, v1, v2 } from '@s2sp/contracts';
import { service as healthServiceDefinition } from 'grpc-health-check';
import type { GatewayConfig } from '../gateway.config';
import { GATEWAY_CONFIG } from '../gateway.constants';
import { loadBalancingServiceConfig } from './agents-target';
import { serializeOnlyDecodableRequests } from './decodable-request-serializers';

interface S2spPackages {
  s2sp: {
    v1: { ToolService: grpc.ServiceClientConstructor; AgentService: grpc.ServiceClientConstructor };
    v2: { ToolService: grpc.ServiceClientConstructor; AgentService: grpc.ServiceClientConstructor };
  };
}

let loadedPackages: S2spPackages | undefined;

/** Client constructors of s2sp.v1 and s2sp.v2, built once per process from the generated service definitions. */
function s2spPackages(): S2spPackages {
  loadedPackages ??= grpc.loadPackageDefinition(
    serializeOnlyDecodableRequests(
      grpcPackageDefinition(
        v1.ToolServiceService,
        v1.AgentServiceService,
        v2.ToolServiceService,
        v2.AgentServiceService,
      ),
    ),
  ) as unknown as S2spPackages;
  return loadedPackages;
}

const HealthClient = grpc.makeClientConstructor(healthServiceDefinition, 'grpc.health.v1.Health');

/**
 * gRPC clients of the agents' s2sp.v1 ToolService and AgentService, s2sp.v2
 * ToolService and AgentService, and standard health service. All share one channel, created once with the app and closed
 * with it. Connection is lazy: nothing is dialled until the first call. The channel spreads calls over every
 * address the target resolves to (`grpc.loadBalancing`, `./agents-target.ts`).
 */
@Injectable()
export class AgentsGrpcClients implements OnApplicationShutdown {
  readonly address: string;
  readonly toolService: grpc.Client;
  readonly agentService: grpc.Client;
  /** s2sp.v2.ToolService (InvokeTool with a typed result). */
  readonly toolServiceV2: grpc.Client;
  /** s2sp.v2.AgentService (ListTasks). */
  readonly agentServiceV2: grpc.Client;
  readonly health: grpc.Client;

  constructor(@Inject(GATEWAY_CONFIG) config: GatewayConfig) {
    const { v1: current, v2: next } = s2spPackages().s2sp;
    const credentials = grpc.credentials.createInsecure();
    this.address = config.agentsUrl;
    this.toolService = new current.ToolService(config.agentsUrl, credentials, {
      'grpc.initial_reconnect_backoff_ms': Math.min(1_000, config.grpc.maxReconnectBackoffMs),
      'grpc.max_reconnect_backoff_ms': config.grpc.maxReconnectBackoffMs,
      'grpc.service_config': loadBalancingServiceConfig(config.grpc.loadBalancing),
    });
    const channelOverride = this.toolService.getChannel();
    this.agentService = new current.AgentService(config.agentsUrl, credentials, { channelOverride });
    this.toolServiceV2 = new next.ToolService(config.agentsUrl, credentials, { channelOverride });
    this.agentServiceV2 = new next.AgentService(config.agentsUrl, credentials, { channelOverride });
    this.health = new HealthClient(config.agentsUrl, credentials, { channelOverride });
  }

  onApplicationShutdown(): void {
    // One channel: closing it through any client closes it for all.
    this.toolService.close();
  }
}
