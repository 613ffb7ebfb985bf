import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { S2SP_OPTIONS } from '../config/s2sp.constants';
import type { ResolvedS2spOptions } from '../config/s2sp-options';
import { warmTokenCounter } from '@s2sp/protocol';
import { S2SP_RESOURCE_TOOL } from './resource-tool.metadata';

/**
 * An app with resource tools counts the tokens of the body columns it keeps out of the
 * model's context whenever an agent asks (`_meta["s2sp/count_tokens"]`): its token counter is
 * loaded while the app starts, before it listens, so that the first such call does not
 * pay for it (about 0.1 s). An app without resource tools does not load it, nor one
 * started with `warmUp: false`.
 */
@Injectable()
export class TokenCounterWarmUp implements OnApplicationBootstrap {
  constructor(
    @Inject(S2SP_OPTIONS) private readonly options: ResolvedS2spOptions,
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
  ) {}

  onApplicationBootstrap(): void {
    if (this.options.warmUp && this.hasResourceTool()) warmTokenCounter();
  }

  private hasResourceTool(): boolean {
    return [...this.discovery.getProviders(), ...this.discovery.getControllers()].some(({ instance }) => {
      if (!instance || typeof instance !== 'object') return false;
      const prototype = Object.getPrototypeOf(instance) as Record<string, unknown>;
      return this.scanner.getAllMethodNames(prototype).some((name) => {
        const method = prototype[name];
        return typeof method === 'function' && this.reflector.get(S2SP_RESOURCE_TOOL, method) !== undefined;
      });
    });
  }
}
