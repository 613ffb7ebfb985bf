import { Controller, Get, Inject, Param, Res, UseGuards } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { PLATFORM_SCOPES } from '@s2sp/contracts';
import { ConsoleAssets } from './console-assets';
import { ConsoleRouteGate } from './console-route-gate';
import { CONSOLE_HEADERS } from './console-headers';
import { CONSOLE_OPTIONS } from './console.constants';
import type { ConsoleOptions } from './console-options';

/** What the console asks before sign-in: whether it may offer dev tokens, and the platform's method scopes. */
export interface ConsoleSettings {
  devTokens: boolean;
  scopes: string[];
}

/**
 * GET /console (the single-page app) and its files, from the build read at
 * start (ConsoleAssets), under a strict CSP (console-headers.ts). The console
 * itself calls POST /rpc like any client, with the token the user gives it.
 */
@Controller('console')
@UseGuards(ConsoleRouteGate('enabled'))
export class ConsoleController {
  constructor(
    private readonly assets: ConsoleAssets,
    @Inject(CONSOLE_OPTIONS) private readonly options: ConsoleOptions,
  ) {}

  @Get()
  index(@Res() reply: FastifyReply): void {
    this.send(reply, 'index.html');
  }

  @Get('api/settings')
  settings(@Res() reply: FastifyReply): void {
    const settings: ConsoleSettings = { devTokens: this.options.devTokens, scopes: Object.values(PLATFORM_SCOPES) };
    reply.status(200).headers(CONSOLE_HEADERS).type('application/json').send(JSON.stringify(settings));
  }

  @Get(':name')
  file(@Param('name') name: string, @Res() reply: FastifyReply): void {
    this.send(reply, name);
  }

  private send(reply: FastifyReply, name: string): void {
    reply.headers(CONSOLE_HEADERS);
    if (!this.assets.built) {
      reply.status(503).type('text/plain; charset=utf-8').send('The console is not built: run `npm run build`.\n');
      return;
    }
    const asset = this.assets.get(name);
    if (!asset) {
      reply.status(404).type('text/plain; charset=utf-8').send('Not found\n');
      return;
    }
    reply.status(200).type(asset.contentType).send(asset.body);
  }
}
