import type { CalendarSnapshot } from '../snapshot/calendar-snapshot.js';
import { closedForm } from './closed-form.js';
import { entityClosedForm } from './entity-closed-form.js';
import { everyNode } from './every-node.js';
import { firstNodes } from './first-nodes.js';
import { inOrder } from './in-order.js';
import { planWalk } from './plan-walk.js';
import type { ResultPage, ResultRequest } from './result-page.js';

/**
 * The asked page of a filter, its total and facets.
 *
 * A node is an event's first date (or, grouping by day, its first date of each Oslo day) that
 * satisfies every date-level condition and search word while its event satisfies the event-level
 * ones: "an event matches when one of its dates satisfies all". Nodes are listed by the promoted
 * date's start, then event id, then date id. The effective lower bound is the later of `fromDate`
 * and now: a date that has ended is never listed.
 *
 * How is planned per filter (`planWalk`): every strategy gives the same page, total and facets as
 * visiting every event (`everyNode`, the reference), only cheaper where its conditions allow.
 */
export function findResultPage(snapshot: CalendarSnapshot, request: ResultRequest): ResultPage {
  const plan = planWalk(snapshot, request);
  switch (plan.strategy) {
    case 'first-nodes':
      return firstNodes(snapshot, request);
    case 'closed-form':
      return closedForm(snapshot, request, plan.unpublished);
    case 'entity-closed-form':
      return entityClosedForm(snapshot, request, plan);
    case 'in-order':
      return inOrder(snapshot, request, plan.from, plan.to);
    case 'venue-runs':
    case 'event-runs':
      return everyNode(snapshot, request, plan.runs);
    case 'full-walk':
      return everyNode(snapshot, request);
  }
}
