import { beforeEach, describe, expect, it, vi } from "vitest";
import type { MutationErrorToast } from "./client";

const shown = vi.hoisted(() => ({ errors: [] as { title: string; options: unknown }[] }));
vi.mock("@/components/toast", () => ({
  toast: { error: (title: string, options: unknown) => shown.errors.push({ title, options }), success: vi.fn(), warning: vi.fn() },
}));

const { errorToastOf, makeQueryClient, UNKNOWN_ERROR } = await import("./client");

describe("errorToastOf (SPEC section 8)", () => {
  it("titles a failure 'Error' with the server's message by default", () => {
    expect(errorToastOf(new Error("Box 3 is not open"), undefined)).toEqual({ title: "Error", description: "Box 3 is not open", id: undefined });
  });

  it("uses the domain's own title and toast id", () => {
    expect(errorToastOf(new Error("Out of stock"), { title: "Oops! Couldn't update your cart", id: "cart" })).toEqual({
      title: "Oops! Couldn't update your cart",
      description: "Out of stock",
      id: "cart",
    });
  });

  it("shows nothing for a mutation that opts out", () => {
    expect(errorToastOf(new Error("merge failed"), false)).toBeNull();
  });

  it("says 'Unknown error occurred' when there is no message", () => {
    expect(errorToastOf(new Error(""), undefined)?.description).toBe(UNKNOWN_ERROR);
    expect(errorToastOf("not an error", undefined)?.description).toBe(UNKNOWN_ERROR);
  });
});

describe("the query client's mutation cache", () => {
  beforeEach(() => {
    shown.errors.length = 0;
  });

  const fail = (meta?: { errorToast: MutationErrorToast }) => {
    const client = makeQueryClient();
    const mutation = client.getMutationCache().build(client, { mutationFn: () => Promise.reject(new Error("Refused")), meta });
    return mutation.execute(undefined).catch(() => undefined);
  };

  it("shows one toast for a failed mutation, with the domain's title", async () => {
    await fail({ errorToast: { title: "Your order could not be placed" } });
    expect(shown.errors).toEqual([{ title: "Your order could not be placed", options: { description: "Refused" } }]);
  });

  it("shows the default toast when a mutation names nothing, and none when it opts out", async () => {
    await fail();
    await fail({ errorToast: false });
    expect(shown.errors).toEqual([{ title: "Error", options: { description: "Refused" } }]);
  });
});
