export * from './proto-catalog';
export * from './contract-checker';
export * from './contract-table';
export * from './gateway-openrpc';
