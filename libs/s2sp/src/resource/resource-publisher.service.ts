import { Inject, Injectable } from '@nestjs/common';
import { S2SP_OPTIONS } from '../config/s2sp.constants';
import type { ResolvedS2spOptions } from '../config/s2sp-options';
import { newResourceToken, resourceUrlFor } from '../protocol/resource-token';
import type { SplitResult } from '../protocol/split-rows';
import { RESOURCE_STORE, type ResourceStore } from '../store/resource-store.interface';
import { ResourceTable } from '../store/resource-table';

/**
 * Who a resource is issued for: the caller, its scopes, what the tool required, and the consumer it is bound to.
 * @public
 */
export interface ResourceIssuance {
  caller: string | null;
  callerScopes?: string[] | null;
  requiredScopes?: string[];
  consumer?: string | null;
}

/**
 * Caches an async-mode result — its full rows, every column, as the protocol's
 * resource server does — and issues its single-use resource_url.
 * @public
 */
@Injectable()
export class ResourcePublisher {
  constructor(
    @Inject(S2SP_OPTIONS) private readonly options: ResolvedS2spOptions,
    @Inject(RESOURCE_STORE) private readonly store: ResourceStore,
  ) {}

  async publish(toolName: string, split: SplitResult, issuance: ResourceIssuance = { caller: null }): Promise<string> {
    const baseUrl = this.options.publicBaseUrl();
    const table = ResourceTable.of(split.rows, split.columns);
    const { token, tokenHash } = this.store.reserveToken?.() ?? newResourceToken();
    await this.store.save({
      tokenHash,
      toolName,
      columns: split.columns,
      abstractDomains: split.abstractDomains,
      bodyDomains: split.bodyDomains,
      table,
      ...issuance,
      expiresAt: new Date(Date.now() + this.options.resourceTtlMs),
    });
    return resourceUrlFor(baseUrl, token);
  }
}
