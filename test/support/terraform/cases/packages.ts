// uapi_package, uapi_package_feed, uapi_authorized_key, uapi_system_password and uapi_token are
// hand-written resources of the provider, with calls of their own (no ETag, no PUT, keyed by name or
// key id): test/api/terraform-handwritten.test.ts replays them as their Go code does.
import type { ReplayCase } from '../case.js';

export const cases: ReplayCase[] = [];
