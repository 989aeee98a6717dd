/**
 * A sensitive send carries a credential in its content (the service's own membership mails: an
 * invitation's or an email change's single-use link). Only the service marks one, never an API
 * body. Its delivery log keeps every outcome (received, routed, sent, delivered, failed with its
 * code) but no field holding its content (no `<channel>_preview`), and its email is sent as
 * composed: no link goes through the click tracker, no open pixel is added and replies are not
 * routed to the environment's inbound address (a reply quotes the link). Every step that would
 * copy or rewrite content asks this predicate, of the send or of the delivery job made from it.
 */
export const isSensitiveSend = (marked: { readonly sensitive?: boolean }): boolean =>
  marked.sensitive === true;
