// Reads one request body with a hard size cap, so a client cannot make the server buffer forever.
import type { IncomingMessage } from 'node:http';

export type BodyOutcome =
  | { kind: 'json'; value: unknown }
  | { kind: 'empty' }
  | { kind: 'too-large' }
  | { kind: 'bad-json'; message: string };

export function readJsonBody(req: IncomingMessage, limit: number): Promise<BodyOutcome> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.resolve({ kind: 'too-large' });
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) {
        chunks.push(chunk);
        return;
      }
      // Stop buffering but not the socket: the 413 must still reach the client (sent with
      // `Connection: close`, so the rest of the upload is never read).
      req.off('data', onData);
      req.off('end', onEnd);
      req.pause();
      resolve({ kind: 'too-large' });
    };
    const onEnd = () => {
      const text = Buffer.concat(chunks).toString('utf8');
      if (text.trim() === '') return resolve({ kind: 'empty' });
      try {
        resolve({ kind: 'json', value: JSON.parse(text) as unknown });
      } catch (error) {
        resolve({ kind: 'bad-json', message: `The body is not JSON: ${(error as Error).message}` });
      }
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', reject);
  });
}
