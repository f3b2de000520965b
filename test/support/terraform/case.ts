// One resource of uapi's Terraform provider as a user's configuration sets it: the replay test
// (test/api/terraform.test.ts) sends, for each case, the requests provider 3.0 sends for create,
// refresh, update with the prior state, import and destroy, and checks every attribute reads back
// with the provider's type and the configured value.
import type { JsonObject } from '../../../src/resources/model.js';

export interface ReplayCase {
  /** The provider's resource type, e.g. `uapi_firewall_zone`; its attributes are in provider.ts. */
  resource: string;
  /** What the test is about when one resource has several cases (a proto, a type). */
  title?: string;
  /** Requests sent before the create (a peer's interface), as plain API requests; undone after. */
  setup?: { method: string; path: string; body?: JsonObject }[];
  /** The attributes the configuration sets, in provider 3.0 JSON: the create sends exactly these. */
  create: JsonObject;
  /**
   * The configuration after an edit: attributes changed or added. null removes one from the
   * configuration (an optional+computed attribute then keeps its state value, as Terraform plans it).
   */
  update: JsonObject;
  /** The id of a section of the emulated router's stock configuration that `terraform import` adopts. */
  imports?: string;
}
