import { Kind, OperationTypeNode, type DocumentNode, type FragmentDefinitionNode, type OperationDefinitionNode } from 'graphql';
import { selectedFieldNames } from '../schema/selected-fields.js';
import { CATEGORIES_TAG, EVENTS_TAG, ORGANIZERS_TAG, VENUES_TAG } from '../domain/answer-tags.js';

const MINUTE = 60_000;

/**
 * How long an answer may be reused, per root field; an operation gets the smallest TTL of the root
 * fields it selects. Answers are keyed by the calendar's data version (an import makes every older
 * answer unreachable at once), so a TTL only bounds what moves with "now": upcoming and ongoing
 * dates, promoted repetitions. The catalogues do not move with "now"; an hour keeps browsers and
 * CDNs from asking for them on every page.
 */
export const RESPONSE_TTL_MS: Readonly<Record<string, number>> = {
  categories: 60 * MINUTE,
  venues: 60 * MINUTE,
  organizers: 60 * MINUTE,
  events: 30_000,
  eventByID: 30_000,
  eventBySlug: 30_000,
  eventsBySlugs: 30_000,
  eventByTitle: 30_000,
  allUpcomingSuperEvents: 30_000,
  allUpcomingEventsInArea: 30_000,
  // Counted like `events` (same "now", same fromDate default): what moves them moves it.
  suggest: 30_000,
  // Introspection: the schema changes with a deploy, which a TTL cannot see; never kept.
  __schema: 0,
};

const LISTED = [EVENTS_TAG, VENUES_TAG, ORGANIZERS_TAG];

/**
 * What an import can change under each root field's answer, as CDN tags (domain/answer-tags.ts):
 * event lists carry `events` (any event change may alter them) and the catalogues their nodes show;
 * `eventByID`/`eventBySlug` add their event's own tag while they execute (or `events` when none is
 * found), so untouched event pages survive an import at the edges.
 */
export const ROOT_FIELD_TAGS: Readonly<Record<string, readonly string[]>> = {
  categories: [CATEGORIES_TAG],
  venues: [VENUES_TAG],
  organizers: [ORGANIZERS_TAG],
  // Facets list venues, organizers and categories with their labels.
  events: [...LISTED, CATEGORIES_TAG],
  eventByID: [VENUES_TAG, ORGANIZERS_TAG],
  eventBySlug: [VENUES_TAG, ORGANIZERS_TAG],
  eventsBySlugs: LISTED,
  eventByTitle: LISTED,
  allUpcomingSuperEvents: LISTED,
  allUpcomingEventsInArea: LISTED,
  changes: LISTED,
  // Hits count events; labels are venue, organizer and category names.
  suggest: [...LISTED, CATEGORIES_TAG],
};

/** TTL of a root field not in the table (`__typename`, `__type`). */
export const DEFAULT_RESPONSE_TTL_MS = 30_000;

/**
 * Root fields whose answers are never kept: their size grows with the calendar (a whole-world box
 * is megabytes), and holding many would take gigabytes. Their answers still get a public
 * `Cache-Control` for their TTL, so that a CDN may keep them, and concurrent identical requests
 * still share one execution.
 */
export const UNCACHED_ROOT_FIELDS: ReadonlySet<string> = new Set(['allUpcomingEventsInArea']);

/** What the response cache may do with one operation's answer (when it has no errors). */
export interface ResponsePolicy {
  /** How long the answer stays fresh, in ms; > 0. */
  ttlMs: number;
  /** Whether the answer may be kept (in this process and in Redis); false for UNCACHED_ROOT_FIELDS. */
  keep: boolean;
  /** CDN tags of the root fields selected (ROOT_FIELD_TAGS); the execution may add its own. */
  tags: readonly string[];
}

export interface ResponsePoliciesOptions {
  /** TTL per root field name. @default RESPONSE_TTL_MS */
  ttlPerRootField?: Readonly<Record<string, number>> | undefined;
  /** @default DEFAULT_RESPONSE_TTL_MS */
  defaultTtlMs?: number;
}

/**
 * The response cache's policy: from the executed document, how long its answer stays fresh and
 * whether it may be kept. Asked by the execution seam (execute-graphql.ts) with the document that
 * executed; the store itself is in front of the whole pipeline (answer-cache/), so a hit is
 * answered before anything is parsed. Why not @envelop/response-cache: docs/transport.md (Response cache).
 */
export class ResponsePolicies {
  private readonly ttls: Readonly<Record<string, number>>;
  private readonly defaultTtl: number;
  // Parsed documents are cached (useParserCache), so one walk per document and operation name.
  private readonly byDocument = new WeakMap<DocumentNode, Map<string, ResponsePolicy | null>>();

  constructor(options: ResponsePoliciesOptions = {}) {
    this.ttls = options.ttlPerRootField ?? RESPONSE_TTL_MS;
    this.defaultTtl = options.defaultTtlMs ?? DEFAULT_RESPONSE_TTL_MS;
  }

  /**
   * The policy of an executed operation; null when its answer is not shareable at all (introspection,
   * a TTL of 0, not a query). Whether an answer with errors may be shared is the HTTP layer's rule: never.
   */
  policyOf(document: DocumentNode, operationName: string | undefined): ResponsePolicy | null {
    let byName = this.byDocument.get(document);
    if (!byName) this.byDocument.set(document, (byName = new Map<string, ResponsePolicy | null>()));
    const known = byName.get(operationName ?? '');
    if (known !== undefined) return known;
    const fields = rootFieldNames(document, operationName);
    const ttlMs = fields.length === 0 ? 0 : Math.min(...fields.map((name) => this.ttls[name] ?? this.defaultTtl));
    const tags = [...new Set(fields.flatMap((name) => ROOT_FIELD_TAGS[name] ?? []))];
    const policy = ttlMs > 0 ? { ttlMs, keep: !fields.some((name) => UNCACHED_ROOT_FIELDS.has(name)), tags } : null;
    byName.set(operationName ?? '', policy);
    return policy;
  }
}

/** The root fields the executed operation selects (fragments on Query included). */
function rootFieldNames(document: DocumentNode, operationName: string | undefined): string[] {
  const operation = document.definitions.find(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION && (operationName === undefined || d.name?.value === operationName),
  );
  if (!operation || operation.operation !== OperationTypeNode.QUERY) return [];
  const fragments = Object.fromEntries(
    document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]),
  );
  return [...selectedFieldNames([operation.selectionSet], fragments)];
}
