import { callerFrom, type CallerIdentity } from '@s2sp/auth';

/**
 * The caller GrpcAuthGuard verified for this call. Only the token counts:
 * never a subject the request names itself (e.g. AgentTask.auth).
 */
export function verifiedCaller(metadata: unknown): CallerIdentity {
  const caller = callerFrom(metadata);
  // The guard runs on every AgentService/ToolService method; reaching here without it is a wiring bug.
  if (!caller) throw new Error('no verified caller on this gRPC call (is GrpcAuthGuard installed?)');
  return caller;
}
