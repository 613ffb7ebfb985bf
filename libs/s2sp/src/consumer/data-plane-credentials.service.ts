import { Inject, Injectable, Optional } from '@nestjs/common';
import { bearerHeader, callerFrom, TokenMinter } from '@s2sp/auth';
import { S2SP_OPTIONS } from '../config/s2sp.constants';
import type { ResolvedS2spOptions } from '../config/s2sp-options';
import { S2spToolError } from '../protocol/s2sp-error';

/** @public */
export interface DataPlaneCredentialRequest {
  /** Origin of the resource server. */
  origin: string;
  /** The consumer tool's raw MCP request (carries the verified caller). */
  rawRequest: unknown;
  /** The consumer tool's own scopes: the fetch token drops them. */
  toolScopes: readonly string[];
  remainingMs?: number;
}

/**
 * What a consumer's data-plane fetch carries: an `Authorization` header (never
 * logged), or none and why — which is what a 401 from a `bearer` server needs explained.
 * @public
 */
export type DataPlaneCredential =
  | { authorization: string; audience: string }
  | { authorization?: undefined; withoutTokenBecause: 'no-caller' | 'no-audience' };

/**
 * The credential of a consumer's data-plane fetch: the caller's token narrowed
 * for the resource server's audience to everything the caller holds except the
 * authority to call this consumer tool (s2sp:data:read and the resource tool's
 * scopes among it). No token when there is no caller (auth not in use, or MCP
 * over stdio) or no audience is configured for the origin: a `capability`
 * resource server needs only the resource_url, and the allowlist decides where it may point.
 * @public
 */
@Injectable()
export class DataPlaneCredentials {
  constructor(
    @Inject(S2SP_OPTIONS) private readonly options: ResolvedS2spOptions,
    @Optional() private readonly minter?: TokenMinter,
  ) {}

  async credentialFor(request: DataPlaneCredentialRequest): Promise<DataPlaneCredential> {
    const caller = request.rawRequest === undefined ? undefined : callerFrom(request.rawRequest);
    if (!caller) return { withoutTokenBecause: 'no-caller' };
    const audience = this.options.resourceAudiences[request.origin];
    if (!audience) return { withoutTokenBecause: 'no-audience' };
    if (!this.minter)
      throw new S2spToolError(
        'This consumer cannot delegate the caller to the data plane: AuthModule is not imported.',
      );
    const scopes = caller.scopes.filter((scope) => !request.toolScopes.includes(scope));
    const token = await this.minter.narrowToken(caller, scopes, audience, request.remainingMs);
    return { authorization: bearerHeader(token), audience };
  }
}
