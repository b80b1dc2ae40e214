import type * as Types from './schema-types.js';
import type { GraphQLResolveInfo } from 'graphql';
import type { EventNode as EventNodeModel, EventConnectionModel as EventConnectionModelModel, RepetitionModel as RepetitionModelModel, PriceModel as PriceModelModel, ImageModel as ImageModelModel, VenueModel as VenueModelModel, OrganizerModel as OrganizerModelModel, CategoryModel as CategoryModelModel, VenueFacetModel as VenueFacetModelModel, OrganizerFacetModel as OrganizerFacetModelModel, CategoryFacetModel as CategoryFacetModelModel } from '../src/schema/models.js';
import type { GraphQLContext } from '../src/schema/context.js';
export type Omit<T, K extends keyof T> = Pick<T, Exclude<keyof T, K>>;
export type RequireFields<T, K extends keyof T> = Omit<T, K> & { [P in K]-?: NonNullable<T[P]> };


export type ResolverTypeWrapper<T> = Promise<T> | T;


export type ResolverWithResolve<TResult, TParent, TContext, TArgs> = {
  resolve: ResolverFn<TResult, TParent, TContext, TArgs>;
};
export type Resolver<TResult, TParent = Record<PropertyKey, never>, TContext = Record<PropertyKey, never>, TArgs = Record<PropertyKey, never>> = ResolverFn<TResult, TParent, TContext, TArgs> | ResolverWithResolve<TResult, TParent, TContext, TArgs>;

export type ResolverFn<TResult, TParent, TContext, TArgs> = (
  parent: TParent,
  args: TArgs,
  context: TContext,
  info: GraphQLResolveInfo
) => Promise<TResult> | TResult;

export type SubscriptionSubscribeFn<TResult, TParent, TContext, TArgs> = (
  parent: TParent,
  args: TArgs,
  context: TContext,
  info: GraphQLResolveInfo
) => AsyncIterable<TResult> | Promise<AsyncIterable<TResult>>;

export type SubscriptionResolveFn<TResult, TParent, TContext, TArgs> = (
  parent: TParent,
  args: TArgs,
  context: TContext,
  info: GraphQLResolveInfo
) => TResult | Promise<TResult>;

export interface SubscriptionSubscriberObject<TResult, TKey extends string, TParent, TContext, TArgs> {
  subscribe: SubscriptionSubscribeFn<{ [key in TKey]: TResult }, TParent, TContext, TArgs>;
  resolve?: SubscriptionResolveFn<TResult, { [key in TKey]: TResult }, TContext, TArgs>;
}

export interface SubscriptionResolverObject<TResult, TParent, TContext, TArgs> {
  subscribe: SubscriptionSubscribeFn<any, TParent, TContext, TArgs>;
  resolve: SubscriptionResolveFn<TResult, any, TContext, TArgs>;
}

export type SubscriptionObject<TResult, TKey extends string, TParent, TContext, TArgs> =
  | SubscriptionSubscriberObject<TResult, TKey, TParent, TContext, TArgs>
  | SubscriptionResolverObject<TResult, TParent, TContext, TArgs>;

export type SubscriptionResolver<TResult, TKey extends string, TParent = Record<PropertyKey, never>, TContext = Record<PropertyKey, never>, TArgs = Record<PropertyKey, never>> =
  | ((...args: any[]) => SubscriptionObject<TResult, TKey, TParent, TContext, TArgs>)
  | SubscriptionObject<TResult, TKey, TParent, TContext, TArgs>;

export type TypeResolveFn<TTypes, TParent = Record<PropertyKey, never>, TContext = Record<PropertyKey, never>> = (
  parent: TParent,
  context: TContext,
  info: GraphQLResolveInfo
) => Types.Maybe<TTypes> | Promise<Types.Maybe<TTypes>>;

export type IsTypeOfResolverFn<T = Record<PropertyKey, never>, TContext = Record<PropertyKey, never>> = (obj: T, context: TContext, info: GraphQLResolveInfo) => boolean | Promise<boolean>;

export type NextResolverFn<T> = () => Promise<T>;

export type DirectiveResolverFn<TResult = Record<PropertyKey, never>, TParent = Record<PropertyKey, never>, TContext = Record<PropertyKey, never>, TArgs = Record<PropertyKey, never>> = (
  next: NextResolverFn<TResult>,
  parent: TParent,
  args: TArgs,
  context: TContext,
  info: GraphQLResolveInfo
) => TResult | Promise<TResult>;





/** Mapping between all available schema types and the resolvers types */
export type ResolversTypes = {
  Boolean: ResolverTypeWrapper<Types.Scalars['Boolean']['output']>;
  Category: ResolverTypeWrapper<CategoryModelModel>;
  CategoryFacet: ResolverTypeWrapper<CategoryFacetModelModel>;
  Event: ResolverTypeWrapper<EventNodeModel>;
  EventChanges: ResolverTypeWrapper<Omit<Types.EventChanges, 'changed'> & { changed: Array<ResolversTypes['Event']> }>;
  EventConnection: ResolverTypeWrapper<EventConnectionModelModel>;
  Filter: Types.Filter;
  Float: ResolverTypeWrapper<Types.Scalars['Float']['output']>;
  Image: ResolverTypeWrapper<ImageModelModel>;
  Int: ResolverTypeWrapper<Types.Scalars['Int']['output']>;
  Location: ResolverTypeWrapper<Types.Location>;
  NearFilter: Types.NearFilter;
  Organizer: ResolverTypeWrapper<OrganizerModelModel>;
  OrganizerFacet: ResolverTypeWrapper<OrganizerFacetModelModel>;
  PageInfo: ResolverTypeWrapper<Types.PageInfo>;
  Price: ResolverTypeWrapper<PriceModelModel>;
  Query: ResolverTypeWrapper<Record<PropertyKey, never>>;
  Repetition: ResolverTypeWrapper<RepetitionModelModel>;
  String: ResolverTypeWrapper<Types.Scalars['String']['output']>;
  Suggestion: ResolverTypeWrapper<Types.Suggestion>;
  SuggestionKind: Types.SuggestionKind;
  Venue: ResolverTypeWrapper<VenueModelModel>;
  VenueFacet: ResolverTypeWrapper<VenueFacetModelModel>;
  WhenPreset: Types.WhenPreset;
};

/** Mapping between all available schema types and the resolvers parents */
export type ResolversParentTypes = {
  Boolean: Types.Scalars['Boolean']['output'];
  Category: CategoryModelModel;
  CategoryFacet: CategoryFacetModelModel;
  Event: EventNodeModel;
  EventChanges: Omit<Types.EventChanges, 'changed'> & { changed: Array<ResolversParentTypes['Event']> };
  EventConnection: EventConnectionModelModel;
  Filter: Types.Filter;
  Float: Types.Scalars['Float']['output'];
  Image: ImageModelModel;
  Int: Types.Scalars['Int']['output'];
  Location: Types.Location;
  NearFilter: Types.NearFilter;
  Organizer: OrganizerModelModel;
  OrganizerFacet: OrganizerFacetModelModel;
  PageInfo: Types.PageInfo;
  Price: PriceModelModel;
  Query: Record<PropertyKey, never>;
  Repetition: RepetitionModelModel;
  String: Types.Scalars['String']['output'];
  Suggestion: Types.Suggestion;
  Venue: VenueModelModel;
  VenueFacet: VenueFacetModelModel;
};

export type CategoryResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['Category'] = ResolversParentTypes['Category']> = {
  id?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  name_en?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  name_nb?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  slug_en?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  slug_nb?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  subCategories?: Resolver<Array<ResolversTypes['Category']>, ParentType, ContextType>;
  visible?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
};

export type CategoryFacetResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['CategoryFacet'] = ResolversParentTypes['CategoryFacet']> = {
  hits?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  id?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  name_en?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  name_nb?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  slug_en?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  slug_nb?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  visible?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
};

export type EventResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['Event'] = ResolversParentTypes['Event']> = {
  activeTickets?: Resolver<Types.Maybe<ResolversTypes['Int']>, ParentType, ContextType>;
  ageRestriction?: Resolver<Types.Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  availableTickets?: Resolver<Types.Maybe<ResolversTypes['Int']>, ParentType, ContextType>;
  cancellationPeriod?: Resolver<Types.Maybe<ResolversTypes['Int']>, ParentType, ContextType>;
  categories?: Resolver<Array<ResolversTypes['String']>, ParentType, ContextType>;
  created_at?: Resolver<Types.Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  desc_en?: Resolver<Types.Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  desc_nb?: Resolver<Types.Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  distanceKm?: Resolver<Types.Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
  duration?: Resolver<Types.Maybe<ResolversTypes['Int']>, ParentType, ContextType>;
  endDate?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  eventCancelled?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  eventLink?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  eventSoldOut?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  event_slug?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  featured?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  id?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  images?: Resolver<Array<ResolversTypes['Image']>, ParentType, ContextType>;
  isSuperEvent?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  jsonLd?: Resolver<Types.Maybe<ResolversTypes['String']>, ParentType, ContextType, Partial<Types.EventJsonLdArgs>>;
  maxBookingDate?: Resolver<Types.Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  maxBookingTime?: Resolver<Types.Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  maximumAge?: Resolver<Types.Maybe<ResolversTypes['Int']>, ParentType, ContextType>;
  minimumAge?: Resolver<Types.Maybe<ResolversTypes['Int']>, ParentType, ContextType>;
  mode?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  organizers?: Resolver<Array<ResolversTypes['Organizer']>, ParentType, ContextType>;
  paymentMethod?: Resolver<Types.Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  prices?: Resolver<Array<ResolversTypes['Price']>, ParentType, ContextType>;
  publishingDate?: Resolver<Types.Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  registrationEnabled?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  repetitions?: Resolver<Array<ResolversTypes['Repetition']>, ParentType, ContextType>;
  startDate?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  startTime?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  superEventID?: Resolver<Types.Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  tags?: Resolver<Array<ResolversTypes['String']>, ParentType, ContextType>;
  ticketsFromDate?: Resolver<Types.Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  ticketsInformation?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  ticketsURL?: Resolver<Types.Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  title_en?: Resolver<Types.Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  title_nb?: Resolver<Types.Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  updated_at?: Resolver<Types.Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  venue?: Resolver<Types.Maybe<ResolversTypes['Venue']>, ParentType, ContextType>;
  views?: Resolver<Types.Maybe<ResolversTypes['Int']>, ParentType, ContextType>;
};

export type EventChangesResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['EventChanges'] = ResolversParentTypes['EventChanges']> = {
  changed?: Resolver<Array<ResolversTypes['Event']>, ParentType, ContextType>;
  cursor?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  hasMore?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  removedIds?: Resolver<Array<ResolversTypes['String']>, ParentType, ContextType>;
};

export type EventConnectionResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['EventConnection'] = ResolversParentTypes['EventConnection']> = {
  categories?: Resolver<Array<ResolversTypes['CategoryFacet']>, ParentType, ContextType>;
  data?: Resolver<Array<ResolversTypes['Event']>, ParentType, ContextType>;
  hasMore?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  organizers?: Resolver<Array<ResolversTypes['OrganizerFacet']>, ParentType, ContextType>;
  pageInfo?: Resolver<ResolversTypes['PageInfo'], ParentType, ContextType>;
  totalCount?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  venues?: Resolver<Array<ResolversTypes['VenueFacet']>, ParentType, ContextType>;
};

export type ImageResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['Image'] = ResolversParentTypes['Image']> = {
  alt?: Resolver<Types.Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  focusX?: Resolver<Types.Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
  focusY?: Resolver<Types.Maybe<ResolversTypes['Float']>, ParentType, ContextType>;
  height?: Resolver<Types.Maybe<ResolversTypes['Int']>, ParentType, ContextType>;
  urlLarge?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  urlSmall?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  width?: Resolver<Types.Maybe<ResolversTypes['Int']>, ParentType, ContextType>;
};

export type LocationResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['Location'] = ResolversParentTypes['Location']> = {
  latitude?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
  longitude?: Resolver<ResolversTypes['Float'], ParentType, ContextType>;
};

export type OrganizerResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['Organizer'] = ResolversParentTypes['Organizer']> = {
  id?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  name?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  slug?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  website?: Resolver<Types.Maybe<ResolversTypes['String']>, ParentType, ContextType>;
};

export type OrganizerFacetResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['OrganizerFacet'] = ResolversParentTypes['OrganizerFacet']> = {
  hits?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  id?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  name?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  slug?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  website?: Resolver<Types.Maybe<ResolversTypes['String']>, ParentType, ContextType>;
};

export type PageInfoResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['PageInfo'] = ResolversParentTypes['PageInfo']> = {
  currentPage?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  pageSize?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  totalPages?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
};

export type PriceResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['Price'] = ResolversParentTypes['Price']> = {
  name_en?: Resolver<Types.Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  name_nb?: Resolver<Types.Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  price?: Resolver<Types.Maybe<ResolversTypes['Int']>, ParentType, ContextType>;
  type?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
};

export type QueryResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['Query'] = ResolversParentTypes['Query']> = {
  allUpcomingEventsInArea?: Resolver<Types.Maybe<Array<ResolversTypes['Event']>>, ParentType, ContextType, Partial<Types.QueryAllUpcomingEventsInAreaArgs>>;
  allUpcomingSuperEvents?: Resolver<Types.Maybe<Array<ResolversTypes['Event']>>, ParentType, ContextType>;
  categories?: Resolver<Types.Maybe<Array<ResolversTypes['Category']>>, ParentType, ContextType>;
  changes?: Resolver<ResolversTypes['EventChanges'], ParentType, ContextType, Partial<Types.QueryChangesArgs>>;
  eventByID?: Resolver<Types.Maybe<ResolversTypes['Event']>, ParentType, ContextType, RequireFields<Types.QueryEventByIdArgs, 'eventID'>>;
  eventBySlug?: Resolver<Types.Maybe<ResolversTypes['Event']>, ParentType, ContextType, RequireFields<Types.QueryEventBySlugArgs, 'eventSlug'>>;
  eventByTitle?: Resolver<Types.Maybe<ResolversTypes['Event']>, ParentType, ContextType, RequireFields<Types.QueryEventByTitleArgs, 'lan' | 'title'>>;
  events?: Resolver<Types.Maybe<ResolversTypes['EventConnection']>, ParentType, ContextType, RequireFields<Types.QueryEventsArgs, 'page' | 'pageSize'>>;
  eventsBySlugs?: Resolver<Types.Maybe<Array<ResolversTypes['Event']>>, ParentType, ContextType, RequireFields<Types.QueryEventsBySlugsArgs, 'eventsSlugs'>>;
  organizers?: Resolver<Types.Maybe<Array<ResolversTypes['Organizer']>>, ParentType, ContextType>;
  suggest?: Resolver<Array<ResolversTypes['Suggestion']>, ParentType, ContextType, RequireFields<Types.QuerySuggestArgs, 'limit' | 'prefix'>>;
  venues?: Resolver<Types.Maybe<Array<ResolversTypes['Venue']>>, ParentType, ContextType>;
};

export type RepetitionResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['Repetition'] = ResolversParentTypes['Repetition']> = {
  duration?: Resolver<Types.Maybe<ResolversTypes['Int']>, ParentType, ContextType>;
  endDate?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  eventCancelled?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  eventSoldOut?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  prices?: Resolver<Types.Maybe<Array<ResolversTypes['Price']>>, ParentType, ContextType>;
  startDate?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  startTime?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  ticketsURL?: Resolver<Types.Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  venue?: Resolver<Types.Maybe<ResolversTypes['Venue']>, ParentType, ContextType>;
};

export type SuggestionResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['Suggestion'] = ResolversParentTypes['Suggestion']> = {
  hits?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  kind?: Resolver<ResolversTypes['SuggestionKind'], ParentType, ContextType>;
  label_en?: Resolver<Types.Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  label_nb?: Resolver<Types.Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  value?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
};

export type VenueResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['Venue'] = ResolversParentTypes['Venue']> = {
  address?: Resolver<Types.Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  id?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  location?: Resolver<Types.Maybe<ResolversTypes['Location']>, ParentType, ContextType>;
  municipality?: Resolver<Types.Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  name?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  postalCode?: Resolver<Types.Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  slug?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
};

export type VenueFacetResolvers<ContextType = GraphQLContext, ParentType extends ResolversParentTypes['VenueFacet'] = ResolversParentTypes['VenueFacet']> = {
  address?: Resolver<Types.Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  hits?: Resolver<ResolversTypes['Int'], ParentType, ContextType>;
  id?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  location?: Resolver<Types.Maybe<ResolversTypes['Location']>, ParentType, ContextType>;
  municipality?: Resolver<Types.Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  name?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  postalCode?: Resolver<Types.Maybe<ResolversTypes['String']>, ParentType, ContextType>;
  slug?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
};

export type Resolvers<ContextType = GraphQLContext> = {
  Category?: CategoryResolvers<ContextType>;
  CategoryFacet?: CategoryFacetResolvers<ContextType>;
  Event?: EventResolvers<ContextType>;
  EventChanges?: EventChangesResolvers<ContextType>;
  EventConnection?: EventConnectionResolvers<ContextType>;
  Image?: ImageResolvers<ContextType>;
  Location?: LocationResolvers<ContextType>;
  Organizer?: OrganizerResolvers<ContextType>;
  OrganizerFacet?: OrganizerFacetResolvers<ContextType>;
  PageInfo?: PageInfoResolvers<ContextType>;
  Price?: PriceResolvers<ContextType>;
  Query?: QueryResolvers<ContextType>;
  Repetition?: RepetitionResolvers<ContextType>;
  Suggestion?: SuggestionResolvers<ContextType>;
  Venue?: VenueResolvers<ContextType>;
  VenueFacet?: VenueFacetResolvers<ContextType>;
};

