/**
 * What every port tells the owner's integrations page (/admin/settings/integrations): how its chooser set it up
 * (`PortDescription`, from configuration alone, no call made) and, on request, whether its provider accepts the
 * shop's credentials (`probe`, one harmless authenticated call). Nothing here ever carries a secret: a secret
 * setting is only "set" or "missing", an id at most its last four characters.
 */

/** How a port runs: against its sandbox, against the provider, or not at all (a live feature left unconfigured). */
export type PortMode = "sandbox" | "live" | "off";

/**
 * One setting a port reads. `shown` is what the page may print: null for a secret, the last four characters of a
 * non-secret id, or a value that is no secret at all (an account number, a bucket name, a host).
 */
export type PortSetting = { name: string; state: "set" | "missing"; shown: string | null };

export type PortDescription = {
  mode: PortMode;
  /** In words: which service or account the mode means ("Mollie test mode", "PayPal's sandbox account"). */
  detail: string;
  /** The provider's address the live adapter talks to (no secret in it); null for a sandbox. */
  endpoint: string | null;
  settings: PortSetting[];
};

/** What a sandbox answers to a probe: there is no provider to ask. */
export const sandboxProbeAnswer = "sandbox, nothing to check";

/**
 * A port's Test connection: resolves with what the provider said in a few words, or throws the adapter's own error
 * (whose message is the provider's). The caller bounds it in time and measures it.
 */
export type Probe = () => Promise<string>;

/** A secret (an API key, a client secret, a refresh token): only whether it is there. */
export function secretSetting(name: string, value: string | undefined | null): PortSetting {
  return { name, state: value ? "set" : "missing", shown: null };
}

/** A non-secret id (a client id, a webhook id): whether it is there and its last four characters. */
export function idSetting(name: string, value: string | undefined | null): PortSetting {
  return { name, state: value ? "set" : "missing", shown: value ? `…${value.slice(-4)}` : null };
}

/** A value that is no secret (an account or customer number, a bucket, an address): shown as it is. */
export function plainSetting(name: string, value: string | undefined | null): PortSetting {
  return { name, state: value ? "set" : "missing", shown: value || null };
}

/** Whether every setting a live port needs is there. */
export function allSet(settings: readonly PortSetting[]): boolean {
  return settings.every((setting) => setting.state === "set");
}
