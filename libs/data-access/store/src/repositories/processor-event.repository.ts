import { Inject, Injectable } from '@nestjs/common';
import { Collections, type ProcessorEventDoc } from '../collections';
import { DOCUMENT_STORE, type DocumentCollection, type DocumentStore } from '../document-store.port';

/** A payment-processor event billing has handled, and what came of it. */
export type HandledProcessorEvent = Readonly<ProcessorEventDoc>;

/**
 * The payment processor's events billing has handled, by the processor's event id, so that one
 * delivered again (the processor retries until it gets a 2xx, and may deliver twice anyway) is
 * answered without acting. Keyed by the processor's id, which is global, not by a tenant.
 */
@Injectable()
export class ProcessorEventRepository {
  private readonly docs: DocumentCollection<ProcessorEventDoc>;

  constructor(@Inject(DOCUMENT_STORE) store: DocumentStore) {
    this.docs = store.collection(Collections.processorEvents);
  }

  get(eventId: string): Promise<HandledProcessorEvent | undefined> {
    return this.docs.get([eventId]);
  }

  /** Inserts unless the event is recorded already; true when inserted. */
  record(event: HandledProcessorEvent): Promise<boolean> {
    return this.docs.insert({ ...event });
  }
}
