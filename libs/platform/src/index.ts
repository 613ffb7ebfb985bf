export * from './circuit-breaker';
