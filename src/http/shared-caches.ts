import type { CdnTagHeaderName } from './cdn-tag-header.js';

/** What public answers tell the shared caches (CDNs) in front of the service, besides their TTL. */
export interface SharedCaches {
  /** The header carrying each answer's CDN tags (CDN_TAG_HEADER); undefined: none. */
  tagHeader: CdnTagHeaderName | undefined;
  /**
   * Whether answers made now are already outdated: this node answers from a data version older than
   * one it knows was imported (while it reads the new one). They then say max-age=0, so that an
   * edge purged for that import does not keep the old answer it fetched from here.
   */
  answersOutdated(): boolean;
}
