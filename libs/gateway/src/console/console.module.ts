import { Module, type DynamicModule } from '@nestjs/common';
import { ConsoleAssets } from './console-assets';
import { ConsoleController } from './console.controller';
import { ConsoleTrailingSlashRedirect } from './console-trailing-slash';
import { CONSOLE_OPTIONS } from './console.constants';
import { validateConsoleOptions, type ConsoleOptions } from './console-options';
import { DevTokenController } from './dev-token.controller';

/**
 * The web console at /console (docs/console.md): its files, and the dev-token
 * endpoint when options.devTokens is on (never in options.production). Needs
 * the global AuthModule (TokenMinter, AUTH_OPTIONS) for dev tokens.
 */
@Module({})
export class ConsoleModule {
  static forRoot(options: ConsoleOptions): DynamicModule {
    validateConsoleOptions(options);
    if (!options.enabled) return { module: ConsoleModule };
    return {
      module: ConsoleModule,
      controllers: [ConsoleController, ...(options.devTokens ? [DevTokenController] : [])],
      providers: [
        { provide: CONSOLE_OPTIONS, useValue: options },
        { provide: ConsoleAssets, useFactory: () => new ConsoleAssets(options.assetsDir) },
        ConsoleTrailingSlashRedirect,
      ],
    };
  }
}
