import {
  ForbiddenException,
  Inject,
  Injectable,
  Logger,
  type CanActivate,
  type ExecutionContext,
} from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isLoopbackAddress, nodeRequestOf, singleHeader } from '@s2sp/platform/internal';
import type { ConsoleOptions } from './console-options';
import { CONSOLE_OPTIONS } from './console.constants';

/**
 * The header the console sends with its dev-token request. A cross-site form
 * cannot send a custom header, and a cross-site fetch with one needs a CORS
 * preflight, which the gateway refuses for foreign origins.
 */
export const CONSOLE_REQUEST_HEADER = 'x-s2sp-console';

/**
 * Lets a dev-token request through only when it can only come from the
 * console on the developer's own machine: the gateway bound to a loopback
 * address, the console not configured for production, and the request same-origin (an `Origin`
 * equal to the console's own origin, or, with no `Origin`, the console's
 * header). Anything else is 403, logged without the body (which names the
 * subject and scopes asked for).
 */
@Injectable()
export class DevTokenRequestGuard implements CanActivate {
  private readonly logger = new Logger('Console');

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    @Inject(CONSOLE_OPTIONS) private readonly options: ConsoleOptions,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    const request = nodeRequestOf(context.switchToHttp().getRequest());
    const refusal = this.refusal(request);
    if (refusal === undefined) return true;
    this.logger.warn(
      `refused a dev-token request from ${request.socket?.remoteAddress ?? 'an unknown address'}: ${refusal}`,
    );
    throw new ForbiddenException(`dev token: ${refusal}`);
  }

  private refusal(request: IncomingMessage): string | undefined {
    if (this.options.production) return 'dev tokens are never minted in production';
    const address = this.adapterHost.httpAdapter?.getHttpServer()?.address() as AddressInfo | string | null | undefined;
    if (!address || typeof address !== 'object' || !isLoopbackAddress(address.address)) {
      return 'dev tokens are minted only while the gateway is bound to a loopback address';
    }
    const origin = singleHeader(request.headers.origin);
    if (origin !== undefined) {
      return isSameOrigin(origin, singleHeader(request.headers.host))
        ? undefined
        : `Origin "${origin}" is not the console's own origin`;
    }
    return singleHeader(request.headers[CONSOLE_REQUEST_HEADER]) === undefined
      ? `a request without Origin must carry the console's ${CONSOLE_REQUEST_HEADER} header`
      : undefined;
  }
}

/** Whether `origin` is the origin of the page served at `host` (http or https). */
function isSameOrigin(origin: string, host: string | undefined): boolean {
  if (host === undefined) return false;
  try {
    const parsed = new URL(origin);
    return (
      (parsed.protocol === 'http:' || parsed.protocol === 'https:') &&
      parsed.host === new URL(`${parsed.protocol}//${host}`).host
    );
  } catch {
    return false;
  }
}
