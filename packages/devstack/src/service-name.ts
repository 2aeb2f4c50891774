/** The services the devstack starts as processes, each its own deployable (docs/architecture.md, "Services"). */
export type ServiceName = 'api-gateway' | 'dispatcher' | 'carrier-sim' | 'webhook-delivery' | 'voice-orchestrator';
