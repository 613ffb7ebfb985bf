/**
 * The `info` object of an OpenRPC document: what the API is called and its version.
 * @public
 */
export interface OpenRpcInfo {
  title: string;
  version: string;
  description?: string;
}
