// Builds the SDK transport for a server's config, its sealed secrets opened at the last moment: the
// app's one entry (stdio-transport-factory.ts and http-transport-factory.ts build each kind).
import type { TransportConfig } from '../../../shared/domain.js';
import { buildHttpTransport } from './http-transport-factory.js';
import { openTransport, type SecretCodec } from '../registry/secret-codec.js';
import { buildStdioTransport, type BuildOptions, type BuiltTransport } from './stdio-transport-factory.js';

// Tests and the benchmark start hosts' clients on it too.
export { InPlaceStdioClientTransport } from './stdio-client-transport.js';
export type { BuildOptions, BuiltTransport } from './stdio-transport-factory.js';

/**
 * Sealed secrets are opened here, at the last moment; one that cannot be (no codec in this process)
 * throws a SealedSecretError rather than reach the server as `enc:v1:…`.
 */
export function buildTransport(sealedOrPlain: TransportConfig, secrets?: SecretCodec, options: BuildOptions = {}): BuiltTransport {
  const config = openTransport(sealedOrPlain, secrets);
  return config.type === 'stdio' ? buildStdioTransport(config, options) : buildHttpTransport(config);
}
