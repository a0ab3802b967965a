// One row of a server's record of network destinations (electron/host/sandbox/egress/network-record.ts).

export interface NetworkRecordRow {
  /** A name looked up through the app's answerer, or a connection (TCP or UDP) to an address and port. */
  kind: 'lookup' | 'connect';
  /** The name, or "ADDRESS:PORT/PROTOCOL" ("[ADDRESS]:PORT/PROTOCOL" for IPv6). */
  target: string;
  verdict: 'allowed' | 'refused';
  /** For a connection: the allowed names that resolved to its address, if any. For a lookup: the addresses given. */
  names?: string[] | undefined;
  addresses?: string[] | undefined;
  /** Epoch ms of the first and the last time, and how often, as seen by the process that ran the server. */
  first: number;
  last: number;
  count: number;
}
