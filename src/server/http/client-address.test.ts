import { describe, expect, it } from "vitest";
import { clientKey, clientNetwork, isLoopbackAddress } from "./client-address";

describe("the key a client is counted under", () => {
  it("takes an IPv6 address as its /64, however it is written, so that a subscriber cannot rotate past a limit", () => {
    const one = "2001:db8:85a3:12:0:8a2e:370:7334";
    for (const address of [one, "2001:db8:85a3:12::1", "2001:DB8:85A3:0012:ffff:ffff:ffff:ffff", "2001:db8:85a3:12::192.0.2.1", "2001:db8:85a3:12::1%eth0"]) {
      expect(clientNetwork(address), address).toBe("2001:db8:85a3:12::/64");
    }
    expect(clientNetwork("2001:db8:85a3:13::1")).toBe("2001:db8:85a3:13::/64");
    expect(clientNetwork("::1")).toBe("0:0:0:0::/64");
  });

  it("counts IPv4 per address, also written IPv4-mapped, and leaves what is not an address as it is", () => {
    expect(clientNetwork("203.0.113.7")).toBe("203.0.113.7");
    expect(clientNetwork("::ffff:203.0.113.7")).toBe("203.0.113.7");
    expect(clientNetwork("unknown")).toBe("unknown");
    expect(clientNetwork("1:2:3")).toBe("1:2:3");
    expect(clientNetwork("1::2::3")).toBe("1::2::3");
  });

  it("reads the address the front door wrote, and keeps the loopback check on the whole address", () => {
    const headers = new Headers({ "x-shop-client": "2001:db8:1:2:3:4:5:6" });
    expect(clientKey(headers, true)).toBe("2001:db8:1:2::/64");
    expect(isLoopbackAddress("::1")).toBe(true);
    expect(isLoopbackAddress("0:0:0:0::/64")).toBe(false);
  });
});
