// A file:// URI as a person reads it: the path, decoded ("My Notes", not "My%20Notes"). The
// renderer has no Node `url`; the WHATWG URL parser does the decoding the same way.
export function uriToPath(uri: string): string {
  try {
    const url = new URL(uri);
    if (url.protocol !== 'file:') return uri;
    const path = decodeURIComponent(url.pathname);
    // file:///C:/Users -> C:/Users; a UNC share keeps its host: //server/share
    if (/^\/[A-Za-z]:/.test(path)) return path.slice(1).replaceAll('/', '\\');
    return url.host ? `//${url.host}${path}` : path;
  } catch {
    return uri;
  }
}
