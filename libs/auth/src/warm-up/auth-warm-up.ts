import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { AUTH_OPTIONS, type ResolvedAuthOptions } from '../config/auth-options';
import { TOKEN_VERIFIER, type TokenVerifier } from '../identity/token-verifier';
import { TokenMinter } from '../minting/token-minter';
import { jose } from '../lazy-jose';

/** The warm-up gives up after this long (a remote key set that does not answer): the app starts anyway. */
const WARM_UP_TIMEOUT_MS = 2_000;

/**
 * Mints one token for the app's own audience and verifies it while the app starts, so that the
 * first request does not pay for what the first token handled costs once: loading jose, reading
 * and importing the signing key, loading the key set, and the signing and verifying code's first runs (together
 * about 5–15 ms per app, several apps on a task's path). It proves nothing: a failure (the app's
 * verifier trusts another issuer, a remote key set is not reachable yet) is logged at debug level
 * and the first request pays as before.
 */
@Injectable()
export class AuthWarmUp implements OnApplicationBootstrap {
  private readonly logger = new Logger('S2spAuth');

  constructor(
    @Inject(AUTH_OPTIONS) private readonly options: ResolvedAuthOptions,
    private readonly minter: TokenMinter,
    @Inject(TOKEN_VERIFIER) private readonly verifier: TokenVerifier,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, WARM_UP_TIMEOUT_MS);
    });
    await Promise.race([this.roundTrip(), timeout]).finally(() => clearTimeout(timer));
  }

  private async roundTrip(): Promise<void> {
    try {
      jose(); // loaded now even when what follows fails
      const audience = this.options.audience;
      const token = await this.minter.mint({ subject: 'warm-up', audience, scopes: [], ttlSeconds: 60 });
      await this.verifier.verify(token);
    } catch (error) {
      this.logger.debug(`Auth warm-up skipped: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
