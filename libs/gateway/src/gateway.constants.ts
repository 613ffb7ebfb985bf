/** Injection token of the validated {@link GatewayConfig}. */
export const GATEWAY_CONFIG = Symbol('GATEWAY_CONFIG');

/**
 * Injection token of the gateway's own database (an S2spDatabase: idempotency records).
 * @public
 */
export const GATEWAY_DATABASE = Symbol('GATEWAY_DATABASE');
