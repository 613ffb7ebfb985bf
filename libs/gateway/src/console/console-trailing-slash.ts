import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { CONSOLE_OPTIONS } from './console.constants';
import type { ConsoleOptions } from './console-options';

/**
 * GET /console/ redirects to /console. Nest maps a controller's `@Get()` to the
 * path without the slash only, so the slash form (what people type, and what a
 * relative link from a page under /console/… resolves to) met the JSON 404.
 * Registered on Fastify directly because Nest strips a route's trailing slash.
 */
@Injectable()
export class ConsoleTrailingSlashRedirect implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    @Inject(CONSOLE_OPTIONS) private readonly options: ConsoleOptions,
  ) {}

  onModuleInit(): void {
    if (!this.options.enabled) return;
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    fastify.get('/console/', (_request, reply: FastifyReply) => {
      void reply.redirect('/console', 308);
    });
  }
}
