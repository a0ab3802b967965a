// Secrets inside an HTTP server's URL: the password of `user:password@` and the values of
// key-like query parameters (`?api_key=…`, `&token=…`). They are masked for every UI and sealed at
// rest like header values. Raw text in, raw text out: only the secret parts are replaced, so the
// rest of the URL keeps its exact spelling (a re-serialized query could turn `%20` into `+`).

/** Query parameter names whose value is taken for a credential. */
const KEY_LIKE_PARAM = /(key|token|secret|passw(or)?d|pwd|auth|sig(nature)?|credential|session)/i;

export function isKeyLikeParam(name: string): boolean {
  return KEY_LIKE_PARAM.test(name);
}

export interface UrlSecretPart {
  kind: 'password' | 'query';
  /** The query parameter's name (decoded), or the user name for a password. */
  name: string;
  /** As written in the URL (still percent-encoded). */
  raw: string;
}

// scheme://  [userinfo@]host... ?query #fragment
const URL_PARTS = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#]*)([^?#]*)(\?[^#]*)?(#.*)?$/i;

function decode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/**
 * Calls `replace` for each secret part; a string it returns is put in place of the raw text
 * (the caller encodes it), undefined keeps it. Returns the URL unchanged when nothing was replaced.
 */
export function mapUrlSecrets(url: string, replace: (part: UrlSecretPart) => string | undefined): string {
  const match = URL_PARTS.exec(url);
  if (!match) return url;
  const [, scheme = '', authority = '', path = '', query, fragment = ''] = match;
  let changed = false;
  let nextAuthority = authority;
  const at = authority.lastIndexOf('@');
  if (at >= 0) {
    const userinfo = authority.slice(0, at);
    const colon = userinfo.indexOf(':');
    if (colon >= 0) {
      const raw = userinfo.slice(colon + 1);
      const next = raw === '' ? undefined : replace({ kind: 'password', name: decode(userinfo.slice(0, colon)), raw });
      if (next !== undefined && next !== raw) {
        changed = true;
        nextAuthority = `${userinfo.slice(0, colon + 1)}${next}${authority.slice(at)}`;
      }
    }
  }
  let nextQuery = query;
  if (query !== undefined && query.length > 1) {
    const pairs = query.slice(1).split('&').map((pair) => {
      const eq = pair.indexOf('=');
      if (eq < 0) return pair;
      const name = decode(pair.slice(0, eq));
      const raw = pair.slice(eq + 1);
      if (raw === '' || !isKeyLikeParam(name)) return pair;
      const next = replace({ kind: 'query', name, raw });
      if (next === undefined || next === raw) return pair;
      changed = true;
      return `${pair.slice(0, eq + 1)}${next}`;
    });
    nextQuery = `?${pairs.join('&')}`;
  }
  return changed ? `${scheme}${nextAuthority}${path}${nextQuery ?? ''}${fragment}` : url;
}

/** The secret parts of a URL, in order. */
export function urlSecretParts(url: string): UrlSecretPart[] {
  const parts: UrlSecretPart[] = [];
  mapUrlSecrets(url, (part) => {
    parts.push(part);
    return undefined;
  });
  return parts;
}

/** The raw text a secret part holds once percent-decoded (a sealed value is stored encoded). */
export function decodedSecret(part: UrlSecretPart): string {
  return decode(part.raw);
}
