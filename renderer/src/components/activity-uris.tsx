// The folders an activity entry names (the roots a server was told), each as a path with its URI
// on hover: one rendering for a server's timeline and the history across servers.
import { uriToPath } from '../file-path.js';

export function ActivityUris({ uris }: { uris: readonly string[] | undefined }) {
  if (!uris || uris.length === 0) return null;
  return (
    <span className="timeline__uris">
      {uris.map((uri) => (
        <span className="mono" key={uri} title={uri}>
          {uriToPath(uri)}
        </span>
      ))}
    </span>
  );
}
