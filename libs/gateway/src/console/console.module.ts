import { Module, type DynamicModule, type ModuleMetadata, type Provider, type Type } from '@nestjs/common';
import { type AsyncModuleOptions } from '@s2sp/platform';
import { asyncOptionsProviders } from '@s2sp/platform/internal';
import { ConsoleAssets } from './console-assets';
import { ConsoleController } from './console.controller';
import { ConsoleTrailingSlashRedirect } from './console-trailing-slash';
import { CONSOLE_OPTIONS } from './console.constants';
import { validateConsoleOptions, type ConsoleOptions } from './console-options';
import { DevTokenController } from './dev-token.controller';

/** Options made at run time: `useFactory`, `useClass` or `useExisting`. */
export type ConsoleModuleAsyncOptions = AsyncModuleOptions<ConsoleOptions>;

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
    const controllers = [ConsoleController, ...(options.devTokens ? [DevTokenController] : [])];
    return ConsoleModule.build([{ provide: CONSOLE_OPTIONS, useValue: options }], [], controllers);
  }

  /** Every route is declared; those the options turn off answer 404 (ConsoleRouteGate). */
  static forRootAsync(options: ConsoleModuleAsyncOptions): DynamicModule {
    const optionProviders = asyncOptionsProviders('ConsoleModule', CONSOLE_OPTIONS, options, (given: ConsoleOptions) =>
      validateConsoleOptions(given),
    );
    return ConsoleModule.build(optionProviders, options.imports ?? [], [ConsoleController, DevTokenController]);
  }

  private static build(
    optionProviders: Provider[],
    imports: NonNullable<ModuleMetadata['imports']>,
    controllers: Type[],
  ): DynamicModule {
    return {
      module: ConsoleModule,
      imports,
      controllers,
      providers: [
        ...optionProviders,
        {
          provide: ConsoleAssets,
          inject: [CONSOLE_OPTIONS],
          useFactory: (options: ConsoleOptions) => new ConsoleAssets(options.assetsDir),
        },
        ConsoleTrailingSlashRedirect,
      ],
    };
  }
}
