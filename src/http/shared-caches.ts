import type { CdnTagHeaderName } from './cdn-tag-header.js';

/** What public answers tell the shared caches (CDNs) in front of the service, besides their TTL. */
export interface SharedCaches {
  /** The header carrying each answer's CDN tags (CDN_TAG_HEADER); undefined: none. */
  tagHeader: CdnTagHeaderName | undefined;
  /**
   * Whether an answer of this data version is outdated already: this node knows of a newer import
   * (it is reading it, or the answer's execution began before it had). Such answers say max-age=0,
   * so that an edge purged for that import does not keep the old answer it fetched from here.
   * `undefined` (no response cache): whether this node is still reading a newer import.
   */
  outdated(answerVersion: string | undefined): boolean;
}
