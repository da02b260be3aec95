/**
 * What one kind of server is, as constants both sides read: the client's
 * adapter (src/main/api/flavors/) and the reference service's wire
 * (src/server/flavors/). A third kind is one more record here, one adapter
 * there and one wire in the service. Runs anywhere.
 */
import type { PayloadFormat } from '../domain/automation.ts';

export interface FlavorRecord {
  name: string;
  label: string;

  // ---- the wire ---------------------------------------------------------
  /** The vendor media type: Accept for the JSON form, Content-Type of writes. */
  mediaType: string;
  /** The list's Content-Type as the server sends it. */
  listMediaType: string;
  /** Paths sit under /api/teams/{team}; else under /api. */
  teams: boolean;
  /** Bearer token, or an optional HTTP Basic login. */
  auth: 'bearer' | 'basic-or-none';
  /** How JSON is written: JSON.stringify's bytes, or PHP's json_encode (escaped slashes, \uXXXX). */
  jsonBytes: 'javascript' | 'php';
  /** The raw message goes out HTML-escaped, as text (MailCare's e()); else as its bytes. */
  escapesRaw: boolean;
  /** A rule written answers with the rule (201/200), or with an empty 200 (the client reads it again). */
  writeAnswer: 'resource' | 'empty';
  /** The list's links keep the other filters, or carry the page alone with Laravel's meta.links. */
  paginator: 'keeps-filters' | 'laravel';
  /** Accept is negotiated with q-values and wildcards, or by Laravel's Request::prefers. */
  negotiation: 'q-values' | 'laravel-prefers';
  /** DELETE /emails empties the mailbox (the reference service's catcher; MailCare has no such route). */
  deleteAll: boolean;
  /** Errors: the first error's words for a 422, or Laravel 8's "The given data was invalid."; an HTML page for a 404 a browser asks for. */
  errors: 'plain' | 'laravel8';

  // ---- automations ------------------------------------------------------
  payloadFormats: readonly PayloadFormat[];
  /** What the payload choice is called on the wire, for the form's label. */
  payloadLabel: string;
  /** Automations can forward by mail (`action_email`). */
  forwarding: boolean;
  /** Sender and inbox criteria are addresses, or regular expressions. */
  addressCriteria: 'address' | 'regex';
  /** Every automation needs a webhook URL or a forward address. */
  requiresAction: boolean;
  /** A PUT keeps fields left out, or replaces every column. */
  update: 'merge' | 'replace';
  /** The service deletes matched mail even when the delivery failed. */
  deletesOnFailedDelivery: boolean;
  /** Webhooks carry X-…-Event/Delivery and an HMAC signature of the body. */
  signs: boolean;
  /** Prefix of the webhook headers. */
  headerPrefix: string;
  /** The title header percent-encoded, or as it is. */
  titleHeader: 'percent-encoded' | 'as-is';
  /** The server's regular-expression engine: RE2 (linear; no lookaround, no backreferences) or PCRE (wrapped as `#…#i`). */
  patternEngine: 're2' | 'pcre';

  // ---- mail -------------------------------------------------------------
  /** Addresses' display names: a name learned later fills an empty one, or the latest wins (the address when none). */
  addressNames: 'fill' | 'latest';
  /** The reference service's switches of this server's own settings (MAILCARE_AUTH, _AUTOMATIONS, _FORWARD). */
  serverSwitches: readonly ('basic' | 'no-automations' | 'forward')[];
}
