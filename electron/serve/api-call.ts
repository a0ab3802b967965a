// `POST /api/call/<channel>`: the HTTP face of the contract. Anything that reaches `dispatch`
// is answered 200 with its Result (the Result says ok or not); the transport's own refusals
// (method, size, JSON) get an HTTP status and the same Result shape.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isChannel } from '../../shared/contract.js';
import { dispatch, hostHandlers, type ContractHandlers } from '../host/contract-handlers.js';
import type { RootsHost } from '../host/roots-host.js';
import { importHandlers } from '../import/import-handlers.js';
import { sendError, sendJson } from './http-reply.js';
import { readJsonBody } from './read-json-body.js';
import { MAX_BODY_BYTES } from './serve-protocol.js';

/** Every channel `serve` answers: the host's own and the import feature's. */
const handlers: ContractHandlers = { ...hostHandlers, ...importHandlers };

export async function handleApiCall(host: RootsHost, channel: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method !== 'POST') {
    return sendError(res, 405, 'invalid-input', 'Use POST.', { Allow: 'POST' });
  }
  const type = req.headers['content-type'];
  // Only JSON: a cross-site form post cannot send it without a preflight we never grant.
  if (type !== undefined && !/^application\/json\s*(;|$)/i.test(type)) {
    return sendError(res, 415, 'invalid-input', 'The body must be application/json.', { Connection: 'close' });
  }
  const body = await readJsonBody(req, MAX_BODY_BYTES);
  if (body.kind === 'too-large') {
    return sendError(res, 413, 'too-long', `The body is larger than ${MAX_BODY_BYTES} bytes.`, { Connection: 'close' });
  }
  if (body.kind === 'bad-json') return sendError(res, 400, 'invalid-input', body.message);
  if (!isChannel(channel)) return sendError(res, 404, 'invalid-input', `Unknown channel: ${channel.slice(0, 100)}`);
  const result = await dispatch(handlers, host, channel, body.kind === 'json' ? body.value : undefined);
  sendJson(res, 200, result);
}
