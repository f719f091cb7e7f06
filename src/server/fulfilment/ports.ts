import "server-only";
import type { Carrier } from "@/lib/enums";
import { getCarrier } from "@/server/integrations/carriers/carriers";
import type { CarrierPort } from "@/server/integrations/carriers/port";
import type { PrivateStoragePort } from "@/server/integrations/storage/port";
import { getPrivateStorage } from "@/server/integrations/storage/storage";

/* Who asks fulfilment to act, and the outside services it asks: the carriers and the private storage. */

/** Who asks; null for the system (a job, the tracking poll). */
export type FulfilmentActor = { userId: string | null; now?: Date };

/**
 * The outside services fulfilment uses; the sandbox or live adapters unless a test hands in its own. Labels carry the
 * customer's name, address and phone number, so they go to the private storage, which has no public address.
 */
export type FulfilmentPorts = { carrierFor: (carrier: Carrier) => CarrierPort; storage: PrivateStoragePort };

export function shopPorts(): FulfilmentPorts {
  return { carrierFor: getCarrier, storage: getPrivateStorage() };
}
