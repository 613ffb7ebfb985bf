/** Injection token of the gateway's resolved ConsoleOptions. */
export const CONSOLE_OPTIONS = 'S2SP_GATEWAY_CONSOLE_OPTIONS';
