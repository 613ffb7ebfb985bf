/**
 * How the gateway spreads its calls over the addresses the agents' target names.
 * @public
 */
export const AGENTS_LOAD_BALANCING_POLICIES = ['round_robin', 'pick_first'] as const;
/** @public */
export type AgentsLoadBalancing = (typeof AGENTS_LOAD_BALANCING_POLICIES)[number];

const PORT = String.raw`\d{1,5}`;
const HOST_PORT = String.raw`[^\s:/,\[\]]+:${PORT}`;
const IPV4_PORT = String.raw`\d{1,3}(?:\.\d{1,3}){3}:${PORT}`;
const IPV6_PORT = String.raw`\[[0-9a-fA-F:.]+\]:${PORT}`;
const list = (address: string) => `${address}(?:,${address})*`;

/**
 * The gRPC targets the gateway accepts for the agents:
 * - `host:port` or `[v6]:port`: the name is resolved through DNS (one Service IP in
 *   Kubernetes: every call goes over one connection to one pod);
 * - `dns:///host:port`: the same, spelled out; a name with one address per replica (a
 *   headless Service) gets a connection to each;
 * - `ipv4:a.b.c.d:port,…` or `ipv6:[…]:port,…`: fixed addresses.
 */
const AGENTS_TARGET = new RegExp(
  `^(?:${HOST_PORT}|${IPV6_PORT}|dns:///(?:${HOST_PORT}|${IPV6_PORT})|ipv4:${list(IPV4_PORT)}|ipv6:${list(IPV6_PORT)})$`,
);

export function isAgentsTarget(target: string): boolean {
  return AGENTS_TARGET.test(target);
}

/** The channel option that makes grpc-js use `policy` across the addresses the target resolves to. */
export function loadBalancingServiceConfig(policy: AgentsLoadBalancing): string {
  return JSON.stringify({ loadBalancingConfig: [{ [policy]: {} }] });
}
