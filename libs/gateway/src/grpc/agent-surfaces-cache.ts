import { Injectable } from '@nestjs/common';
import type { v2 } from '@s2sp/contracts';
import type { WithSurfacesFingerprint } from './tool-service.client';

/**
 * The agents' last ListSurfaces answers, per server filter, kept while the
 * surfaces fingerprint the agents send with ListTools stays the same: the
 * first page of tools.list then needs no second gRPC call. A new fingerprint
 * drops every answer kept for another one, so the cache holds at most one
 * answer per server filter the agents accepted (their configured servers, and
 * all of them).
 */
@Injectable()
export class AgentSurfacesCache {
  private fingerprint: string | undefined;
  private readonly byServer = new Map<string, v2.ListSurfacesResponse>();

  /** The answer kept for `server`, if the agents' surfaces are still those it was fetched with. */
  find(server: string, surfacesFingerprint: string | undefined): v2.ListSurfacesResponse | undefined {
    if (surfacesFingerprint === undefined || surfacesFingerprint !== this.fingerprint) return undefined;
    return this.byServer.get(server);
  }

  /** Keeps a ListSurfaces answer under the fingerprint it came with; an answer without one is not kept. */
  keep(server: string, fetched: WithSurfacesFingerprint<v2.ListSurfacesResponse>): void {
    if (fetched.surfacesFingerprint === undefined) return;
    if (fetched.surfacesFingerprint !== this.fingerprint) {
      this.byServer.clear();
      this.fingerprint = fetched.surfacesFingerprint;
    }
    this.byServer.set(server, fetched.answer);
  }
}
