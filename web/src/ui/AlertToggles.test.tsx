// @vitest-environment jsdom
import { cleanup, render, screen, waitFor } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { PUSH_KIND_LABEL } from "@dicehall/core/notify/pushKinds.ts";
import { AlertToggles } from "./AlertToggles.tsx";
import { soundOn } from "./alerts.ts";

const wallet = vi.hoisted(() => ({ address: undefined as string | undefined }));
// The push settings read the hall (for the key's proof) and sign with the wallet when no key can.
vi.mock("wagmi", () => ({
  useConnection: () => ({ address: wallet.address }),
  useChainId: () => 31337,
  useClient: () => undefined,
  useSignMessage: () => ({ signMessageAsync: async () => "0x" }),
}));

afterEach(() => {
  cleanup();
  localStorage.clear();
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
  wallet.address = undefined;
});

function fakeNotification(initial: NotificationPermission) {
  const state = { permission: initial, asked: 0 };
  const Fake = {
    get permission() {
      return state.permission;
    },
    requestPermission: vi.fn(async () => {
      state.asked++;
      state.permission = "granted";
      return state.permission;
    }),
  };
  vi.stubGlobal("Notification", Fake);
  return state;
}

describe("AlertToggles", () => {
  it("has the turn sound on by default, and remembers it off", async () => {
    fakeNotification("default");
    render(<AlertToggles />);
    const sound = screen.getByRole("button", { name: "Turn sound" });
    expect(sound.getAttribute("aria-pressed")).toBe("true");
    await userEvent.click(sound);
    expect(sound.getAttribute("aria-pressed")).toBe("false");
    expect(localStorage.getItem("dicehall.alerts.sound")).toBe("off");
    expect(soundOn()).toBe(false);
    cleanup();
    render(<AlertToggles />);
    expect(screen.getByRole("button", { name: "Turn sound" }).getAttribute("aria-pressed")).toBe(
      "false",
    );
  });

  it("asks for notifications only from its button, never on load", async () => {
    const state = fakeNotification("default");
    render(<AlertToggles />);
    expect(state.asked).toBe(0);
    await userEvent.click(screen.getByRole("button", { name: "Notify me" }));
    expect(state.asked).toBe(1);
    await waitFor(() => expect(screen.queryByRole("button", { name: "Notify me" })).toBeNull());
  });

  it("offers nothing to ask where notifications are refused or missing", () => {
    fakeNotification("denied");
    render(<AlertToggles />);
    expect(screen.queryByRole("button", { name: "Notify me" })).toBeNull();
  });

  it("opens the push settings with a wallet and an index that sends pushes", async () => {
    fakeNotification("granted");
    wallet.address = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
    vi.stubEnv("VITE_INDEXER_URL", "http://index.test");
    vi.stubGlobal("PushManager", class {});
    Object.defineProperty(navigator, "serviceWorker", {
      configurable: true,
      value: { ready: Promise.resolve({ pushManager: { getSubscription: async () => null } }) },
    });
    const asked: string[] = [];
    vi.stubGlobal("fetch", async (url: string) => {
      asked.push(url);
      return new Response(JSON.stringify({ publicKey: "BKey", kinds: ["turn"] }));
    });
    render(<AlertToggles />);
    await userEvent.click(screen.getByRole("button", { name: "Notify me" }));
    const dialog = await screen.findByRole("dialog", { name: "Notifications" });
    expect(await screen.findByRole("checkbox", { name: PUSH_KIND_LABEL.turn })).toBeTruthy();
    expect(dialog.textContent).toMatch(/keeps this browser's push address and keys/);
    expect(asked).toEqual(["http://index.test/api/push/key"]);
    Reflect.deleteProperty(navigator, "serviceWorker");
  });
});
