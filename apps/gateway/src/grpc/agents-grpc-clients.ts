import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import * as grpc from '@grpc/grpc-js';
import { grpcPackageDefinition, v1 } from '@s2sp/contracts';
import { service as healthServiceDefinition } from 'grpc-health-check';
import type { GatewayConfig } from '../gateway.config';
import { GATEWAY_CONFIG } from '../gateway.constants';
import { serializeOnlyDecodableRequests } from './decodable-request-serializers';

interface S2spV1Package {
  s2sp: { v1: { ToolService: grpc.ServiceClientConstructor; AgentService: grpc.ServiceClientConstructor } };
}

let loadedPackage: S2spV1Package | undefined;

/** Client constructors of s2sp.v1, built once per process from the generated service definitions. */
function s2spV1(): S2spV1Package {
  loadedPackage ??= grpc.loadPackageDefinition(
    serializeOnlyDecodableRequests(grpcPackageDefinition(v1.ToolServiceService, v1.AgentServiceService)),
  ) as unknown as S2spV1Package;
  return loadedPackage;
}

const HealthClient = grpc.makeClientConstructor(healthServiceDefinition as grpc.ServiceDefinition, 'grpc.health.v1.Health');

/**
 * gRPC clients of the agents' ToolService, AgentService and standard health
 * service. All three share one channel, created once with the app and closed
 * with it. Connection is lazy: nothing is dialled until the first call.
 */
@Injectable()
export class AgentsGrpcClients implements OnApplicationShutdown {
  readonly address: string;
  readonly toolService: grpc.Client;
  readonly agentService: grpc.Client;
  readonly health: grpc.Client;

  constructor(@Inject(GATEWAY_CONFIG) config: GatewayConfig) {
    const { ToolService, AgentService } = s2spV1().s2sp.v1;
    const credentials = grpc.credentials.createInsecure();
    this.address = config.agentsUrl;
    this.toolService = new ToolService(config.agentsUrl, credentials, {
      'grpc.initial_reconnect_backoff_ms': Math.min(1_000, config.grpc.maxReconnectBackoffMs),
      'grpc.max_reconnect_backoff_ms': config.grpc.maxReconnectBackoffMs,
    });
    const channelOverride = this.toolService.getChannel();
    this.agentService = new AgentService(config.agentsUrl, credentials, { channelOverride });
    this.health = new HealthClient(config.agentsUrl, credentials, { channelOverride });
  }

  onApplicationShutdown(): void {
    // One channel: closing it through any client closes it for all three.
    this.toolService.close();
  }
}
