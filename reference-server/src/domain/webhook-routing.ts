/** Which endpoints an event goes to (docs/webhooks.md#endpoints): its tenant's live ones whose filters let it through. */
export interface EndpointFilter {
  tenant_id: string;
  /** Event types it wants; empty for all. */
  events: readonly string[];
  /** The one waitlist it wants events of, or null for all of the tenant's. */
  waitlist_id: string | null;
}

export interface RoutedEvent {
  tenant_id: string;
  waitlist_id: string;
  type: string;
}

export function wants(endpoint: EndpointFilter, event: RoutedEvent): boolean {
  return (
    endpoint.tenant_id === event.tenant_id &&
    (endpoint.waitlist_id === null || endpoint.waitlist_id === event.waitlist_id) &&
    (endpoint.events.length === 0 || endpoint.events.includes(event.type))
  );
}
