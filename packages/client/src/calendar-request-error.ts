/**
 * One entry of a GraphQL response's `errors`, as the service sends it. Declared here rather than
 * imported from graphql-js so that the client's types need no GraphQL package; graphql-js's
 * `GraphQLFormattedError` fits it.
 */
export interface GraphQLErrorLike {
  readonly message: string;
  readonly locations?: ReadonlyArray<{ readonly line: number; readonly column: number }> | undefined;
  readonly path?: ReadonlyArray<string | number> | undefined;
  readonly extensions?: Readonly<Record<string, unknown>> | undefined;
}

/**
 * A request whose response carried `errors` (on any status: the spec lets `errors` accompany
 * partial `data` on 200), or that got no usable GraphQL response at all (status 0: network).
 */
export class CalendarRequestError<TData = unknown> extends Error {
  override readonly name = 'CalendarRequestError';

  constructor(
    /** The response's `errors`, or one made up here when the body was not a GraphQL response. */
    readonly errors: readonly GraphQLErrorLike[],
    /** HTTP status; 0 when no response arrived. */
    readonly status: number,
    /** Partial data that came with the errors (null fields where resolvers failed). */
    readonly data: TData | null = null,
    readonly extensions: Readonly<Record<string, unknown>> = {},
    options?: { cause?: unknown; retryAfter?: number | undefined },
  ) {
    super(errors.map((error) => error.message).join('; ') || `Request failed with status ${status}`, options);
    this.retryAfter = options?.retryAfter;
  }

  /**
   * Seconds the service asked to wait before retrying (`Retry-After` of a 503 SERVICE_UNAVAILABLE or
   * a 429 RATE_LIMITED: this caller's budget or share is spent); undefined when it named none.
   */
  readonly retryAfter: number | undefined;

  /** `extensions.code` of the first error, e.g. `BAD_USER_INPUT`. */
  get code(): string | undefined {
    const code = this.errors[0]?.extensions?.['code'];
    return typeof code === 'string' ? code : undefined;
  }
}
