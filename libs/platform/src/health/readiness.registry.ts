import { Injectable } from '@nestjs/common';

/** A backend check for `/health/ready`: resolves when the backend answers, rejects otherwise. */
export interface ReadinessProbe {
  readonly name: string;
  probe(): Promise<void>;
}

/**
 * Adapters register their probe when they connect, so readiness checks exactly the backends a
 * process was configured with (embedded adapters register too: a closed data dir is not ready).
 */
@Injectable()
export class ReadinessRegistry {
  private readonly probes = new Map<string, ReadinessProbe>();
  private draining = false;

  register(probe: ReadinessProbe): void {
    this.probes.set(probe.name, probe);
  }

  all(): ReadinessProbe[] {
    return [...this.probes.values()];
  }

  /** Once shutdown starts, readiness fails so the load balancer stops sending new requests. */
  startDraining(): void {
    this.draining = true;
  }

  get isDraining(): boolean {
    return this.draining;
  }
}
