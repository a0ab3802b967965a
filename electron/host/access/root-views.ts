// Root views for the state snapshot: each root with its URI and accessibility. Rebuilt only when
// the roots or an access state changed; URIs are computed once per canonical path.
import type { Registry, RootAccess, RootId, RootView } from '../../../shared/domain.js';
import type { SensitiveFolderKind } from '../../../shared/sandbox.js';
import { pathToRootUri } from '../registry/file-uri.js';

export class RootViews {
  private cached: { roots: Registry['roots']; accessVersion: number; views: RootView[] } | undefined;
  private readonly uris = new Map<string, string>();

  uriOf(canonicalPath: string): string {
    let uri = this.uris.get(canonicalPath);
    if (uri === undefined) {
      uri = pathToRootUri(canonicalPath);
      this.uris.set(canonicalPath, uri);
    }
    return uri;
  }

  views(roots: Registry['roots'], accessVersion: number, accessOf: (id: RootId) => RootAccess, sensitiveOf: (canonicalPath: string) => SensitiveFolderKind | undefined = () => undefined): RootView[] {
    if (this.cached?.roots === roots && this.cached.accessVersion === accessVersion) return this.cached.views;
    const views = roots.map((root) => {
      const sensitive = sensitiveOf(root.canonicalPath);
      return { ...root, uri: this.uriOf(root.canonicalPath), access: accessOf(root.id), isLink: root.path !== root.canonicalPath, ...(sensitive ? { sensitive } : {}) };
    });
    this.cached = { roots, accessVersion, views };
    return views;
  }
}
