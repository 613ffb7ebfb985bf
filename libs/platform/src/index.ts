export * from './circuit-breaker';
export * from './periodic-sweep';
