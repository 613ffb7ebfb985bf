import {
  Inject,
  Injectable,
  mixin,
  NotFoundException,
  type CanActivate,
  type ExecutionContext,
  type Type,
} from '@nestjs/common';
import { nodeRequestOf } from '@s2sp/platform/internal';
import { CONSOLE_OPTIONS } from './console.constants';
import type { ConsoleOptions } from './console-options';

/**
 * Lets a console route through only while the console is enabled and `setting`
 * is on; otherwise answers the 404 Nest answers for a route that does not exist.
 * ConsoleModule.forRootAsync declares every route, because which ones are on is
 * known only once its options are made.
 */
export function ConsoleRouteGate(setting: 'enabled' | 'devTokens'): Type<CanActivate> {
  @Injectable()
  class Gate implements CanActivate {
    constructor(@Inject(CONSOLE_OPTIONS) private readonly options: ConsoleOptions) {}

    canActivate(context: ExecutionContext): boolean {
      if (this.options.enabled && this.options[setting]) return true;
      const request = nodeRequestOf(context.switchToHttp().getRequest());
      throw new NotFoundException(`Cannot ${request.method ?? 'GET'} ${request.url ?? '/'}`);
    }
  }
  return mixin(Gate);
}
